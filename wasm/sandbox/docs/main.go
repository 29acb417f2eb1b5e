//go:build js && wasm

// Command docs is the static explorer's sandbox module of the docs API (server/sandbox/docs): the app fetches it on the
// first Send of that API (app/fetch) and it answers /proxy/docs/… as the Loupe server's proxy
// and sandbox do (wasm/internal/bridge, server/sandbox/inpage). It is built as the server
// builds the sandbox (server/sandbox/all.New), with the documented default credential.
package main

import (
	"net/http"

	"loupe/server/sandbox/docs"
	"loupe/server/sandbox/state"
	"loupe/wasm/internal/bridge"
)

func main() {
	bridge.ServeSandbox("docs", func(*state.Registry) (http.Handler, error) {
		return docs.New(docs.Options{}), nil
	}, nil, "")
}
