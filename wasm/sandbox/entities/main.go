//go:build js && wasm

// Command entities is the static explorer's sandbox module of the entities API (server/sandbox/entities), over its dataset in content/data: the app fetches it on the
// first Send of that API (app/fetch) and it answers /proxy/entities/… as the Loupe server's proxy
// and sandbox do (wasm/internal/bridge, server/sandbox/inpage). It is built as the server
// builds the sandbox (server/sandbox/all.New), with the documented default credential.
package main

import (
	"net/http"

	"loupe/content"
	"loupe/server/sandbox"
	"loupe/server/sandbox/entities"
	"loupe/server/sandbox/state"
	"loupe/wasm/internal/bridge"
)

func main() {
	bridge.ServeSandbox("entities", func(*state.Registry) (http.Handler, error) {
		return entities.New(entities.Options{Key: sandbox.DefaultKey, Data: content.EntitiesFS})
	}, nil, "")
}
