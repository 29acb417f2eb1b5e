// Command emptyapp is the smallest go-app app: one route, one component. BenchmarkAppWasmBesideEmptyApp
// builds it the way `make wasm` builds Loupe's, with the go-app version of Loupe's go.mod, as the
// floor Loupe's app.wasm is measured against.
package main

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// hello is the app's one component.
type hello struct{ app.Compo }

// Render shows a heading.
func (h *hello) Render() app.UI { return app.H1().Text("Hello") }

func main() {
	app.Route("/", func() app.Composer { return &hello{} })
	app.RunWhenOnBrowser()
}
