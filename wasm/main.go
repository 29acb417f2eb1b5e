// Command wasm is the Loupe app compiled to WebAssembly (GOOS=js GOARCH=wasm).
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	loupe "loupe/app"
)

func main() {
	loupe.Routes()
	app.RunWhenOnBrowser()
}
