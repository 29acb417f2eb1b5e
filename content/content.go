// Package content embeds what Loupe knows about the APIs, as data: the OpenAPI documents
// (openapi/<slug>.yaml), the guides (guides/<slug>.md), the walkthroughs
// (walkthroughs/<id>.arazzo.yaml) and the sandbox datasets (data/).
package content

import "embed"

// FS holds openapi/, guides/, walkthroughs/ and data/ at its root.
//
//go:embed openapi guides data walkthroughs
var FS embed.FS
