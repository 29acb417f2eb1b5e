// Package content embeds what Loupe knows about the APIs, as data: the OpenAPI documents
// (openapi/<slug>.yaml), the guides (guides/<slug>.md), the walkthroughs
// (walkthroughs/<id>.arazzo.yaml) and the sandbox datasets (data/).
package content

import (
	"embed"
	"io/fs"
	"path"
	"strings"
)

// FS holds openapi/, guides/, walkthroughs/ and data/ at its root.
//
//go:embed openapi guides data walkthroughs
var FS embed.FS

// Slugs lists the built-in APIs: the slug of every document openapi/<slug>.yaml in FS,
// sorted. It is derived from the documents, so adding one adds an API.
func Slugs() []string {
	names, _ := fs.Glob(FS, "openapi/*.yaml") // the pattern is valid
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, strings.TrimSuffix(path.Base(n), ".yaml"))
	}
	return out
}

// The parts of FS that a single sandbox reads. The sandbox packages and the static explorer's
// modules (wasm/sandbox/<slug>) use them instead of FS, so that a module links only its own
// data (reports: 1.79 to 1.63 MB brotli); the files are the same as FS's (TestPartsAreFS).
var (
	// ReportsFS holds openapi/reports.yaml, the document the reports sandbox is built from.
	//
	//go:embed openapi/reports.yaml
	ReportsFS embed.FS

	// EntitiesFS holds data/entities, the entity search sandbox's dataset.
	//
	//go:embed data/entities
	EntitiesFS embed.FS

	// DocsFS holds data/docs, the documentation hosting sandbox's pages and images.
	//
	//go:embed data/docs
	DocsFS embed.FS
)
