//go:build js && wasm

// Command cluster is the static explorer's sandbox module of the cluster API (server/sandbox/cluster): the app fetches it on the
// first Send of that API (app/fetch) and it answers /proxy/cluster/… as the Loupe server's proxy
// and sandbox do (wasm/internal/bridge, server/sandbox/inpage). It is built as the server
// builds the sandbox (server/sandbox/all.New), with the documented default credential.
package main

import (
	"net/http"

	"loupe/server/sandbox"
	"loupe/server/sandbox/cluster"
	"loupe/server/sandbox/state"
	"loupe/wasm/internal/bridge"
)

func main() {
	bridge.ServeSandbox("cluster", func(reg *state.Registry) (http.Handler, error) {
		return cluster.New(cluster.Options{Key: sandbox.DefaultKey, Registry: reg}), nil
	}, nil, "")
}
