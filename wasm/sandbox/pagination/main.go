//go:build js && wasm

// Command pagination is the static explorer's sandbox module of the pagination API (server/sandbox/pagination): the app fetches it on the
// first Send of that API (app/fetch) and it answers /proxy/pagination/… as the Loupe server's proxy
// and sandbox do (wasm/internal/bridge, server/sandbox/inpage). It is built as the server
// builds the sandbox (server/sandbox/all.New), with the documented default credential.
package main

import (
	"net/http"

	"loupe/server/sandbox/pagination"
	"loupe/server/sandbox/state"
	"loupe/wasm/internal/bridge"
)

func main() {
	bridge.ServeSandbox("pagination", func(reg *state.Registry) (http.Handler, error) {
		return pagination.New(pagination.Options{Registry: reg}), nil
	}, nil, "")
}
