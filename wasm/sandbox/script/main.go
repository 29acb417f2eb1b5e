//go:build js && wasm

// Command script is the static explorer's sandbox module of the script API
// (server/sandbox/script, with its JavaScript runtime): the app fetches it on the first Send of
// that API, or the first syntax check of the script workspace (app/fetch), and it answers
// /proxy/script/… and POST /tools/script/syntax as the Loupe server does (wasm/internal/bridge,
// server/sandbox/inpage). It is built as the server builds the sandbox
// (server/sandbox/all.New), with the documented default credential.
package main

import (
	"net/http"

	"loupe/server/sandbox"
	"loupe/server/sandbox/script"
	"loupe/server/sandbox/state"
	"loupe/wasm/internal/bridge"
)

func main() {
	mux := http.NewServeMux()
	mux.Handle(script.SyntaxCheckPath, script.SyntaxChecker())
	bridge.ServeSandbox("script", func(reg *state.Registry) (http.Handler, error) {
		return script.New(script.Options{Key: sandbox.DefaultKey, State: reg}), nil
	}, mux, "/proxy/script/<path> and POST "+script.SyntaxCheckPath)
}
