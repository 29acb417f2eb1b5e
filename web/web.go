// Package web embeds Loupe's static assets: the stylesheet, the theme script (theme.js, run
// in every page's head), the icons and the build output app.wasm with its precompressed
// app.wasm.br and app.wasm.gz (made by `make build`).
//
// The wasm files are ignored by git; on a fresh checkout before `make build` they are absent,
// and server/site answers /web/app.wasm with an error that says to run make build.
package web

import "embed"

// FS holds every file of this folder; server/site serves only the asset types it knows.
//
//go:embed *
var FS embed.FS
