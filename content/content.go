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
