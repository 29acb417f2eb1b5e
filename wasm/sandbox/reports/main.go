//go:build js && wasm

// Command reports is the static explorer's sandbox module of the reports API (server/sandbox/reports), over its dataset in content/data: the app fetches it on the
// first Send of that API (app/fetch) and it answers /proxy/reports/… as the Loupe server's proxy
// and sandbox do (wasm/internal/bridge, server/sandbox/inpage). It is built as the server
// builds the sandbox (server/sandbox/all.New), with the documented default credential.
package main

import (
	"net/http"

	"loupe/content"
	"loupe/server/sandbox"
	"loupe/server/sandbox/reports"
	"loupe/server/sandbox/state"
	"loupe/wasm/internal/bridge"
)

func main() {
	bridge.ServeSandbox("reports", func(*state.Registry) (http.Handler, error) {
		return reports.New(reports.Options{Key: sandbox.DefaultKey, Content: content.ReportsFS})
	}, nil, "")
}
