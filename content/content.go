// Package content embeds what Loupe knows about the APIs, as data: the OpenAPI documents
// (openapi/<slug>.yaml), the guides (guides/<slug>.md) and the sandbox datasets (data/).
package content

import "embed"

// FS holds openapi/, guides/ and data/ at its root.
//
//go:embed openapi guides data
var FS embed.FS
