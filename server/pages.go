package server

import (
	loupeapp "loupe/app"
	"loupe/app/catalog"
)

// isPage reports whether path names a page of the app (app.IsPage, the shell's own routing).
// Any other path is answered 404 with the not-found page.
func isPage(cat *catalog.Catalog, path string) bool { return loupeapp.IsPage(cat, path) }
