package server

import (
	"strings"

	"loupe/app/catalog"
)

// isPage reports whether path names a page of the app: the overview, an API's guide or one of
// its operations (a trailing slash allowed). Any other path is answered 404 with the
// not-found page.
func isPage(cat *catalog.Catalog, path string) bool {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case path == "/":
		return true
	case len(parts) > 2:
		return false
	}
	a := cat.API(parts[0])
	if a == nil {
		return false
	}
	return len(parts) == 1 || a.Operation(parts[1]) != nil
}
