//go:build js && wasm

// Command walkthroughs is the static explorer's walkthrough engine: the app fetches it when a
// walkthrough first runs, is checked or recorded (app/fetch), and it answers POST
// /walkthroughs/… with the Loupe server's walkthrough service (server/sandbox/inpage/walks),
// the walkthroughs loaded on the first request against the site's catalog.json and /arazzo/
// documents. It holds no sandbox: the app sends each step's call through the module of that
// step's API and posts the answer back to be judged.
package main

import (
	"net/http"

	"loupe/content"
	"loupe/server/sandbox/inpage"
	"loupe/server/sandbox/inpage/walks"
	"loupe/wasm/internal/bridge"
)

func main() {
	mux := http.NewServeMux()
	walks.Register(mux, walks.Options{Content: content.FS, Catalog: bridge.LoadCatalog, Document: bridge.LoadDocument})
	bridge.Serve(inpage.Handler(nil, mux, walks.Answers), nil)
}
