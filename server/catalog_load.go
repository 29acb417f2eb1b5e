package server

import (
	"fmt"
	"io/fs"

	"loupe/app/catalog"
	servercatalog "loupe/server/catalog"
	"loupe/server/walkthrough"
)

// loadCatalog compiles the catalog of content (the OpenAPI documents and guides) with its
// walkthroughs, loaded and compiled into it, as both the server and the static explorer serve
// it: the catalog's version follows the walkthroughs too.
func loadCatalog(content fs.FS) (*catalog.Catalog, *walkthrough.Set, error) {
	cat, err := servercatalog.Load(content)
	if err != nil {
		return nil, nil, fmt.Errorf("loading the catalog: %w", err)
	}
	walks, err := walkthrough.Load(content, cat)
	if err != nil {
		return nil, nil, fmt.Errorf("loading the walkthroughs: %w", err)
	}
	if cat.Walkthroughs, err = walkthrough.Compile(walks); err != nil {
		return nil, nil, fmt.Errorf("compiling the walkthroughs: %w", err)
	}
	cat.Version += "-" + walks.Version() // the catalog's ETag follows the walkthroughs too
	return cat, walks, nil
}
