//go:build js && wasm

// Command chat is the static explorer's sandbox module of the chat API (server/sandbox/chat), its model paced at 40 tokens a second as a reader sees it stream: the app fetches it on the
// first Send of that API (app/fetch) and it answers /proxy/chat/… as the Loupe server's proxy
// and sandbox do (wasm/internal/bridge, server/sandbox/inpage). It is built as the server
// builds the sandbox (server/sandbox/all.New), with the documented default credential.
package main

import (
	"net/http"

	"loupe/server/sandbox"
	"loupe/server/sandbox/chat"
	"loupe/server/sandbox/state"
	"loupe/wasm/internal/bridge"
)

func main() {
	bridge.ServeSandbox("chat", func(*state.Registry) (http.Handler, error) {
		return chat.New(chat.Options{Key: sandbox.DefaultKey, TokensPerSecond: 40}), nil
	}, nil, "")
}
