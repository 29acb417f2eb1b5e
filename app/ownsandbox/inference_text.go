package ownsandbox

import (
	"strconv"
	"strings"

	"loupe/app/catalog"
)

// pathsText names a collection's paths.
func pathsText(r *catalog.SandboxCollection) string {
	if r.Item == "" {
		return r.Collection + " (no item path: create and list only)"
	}
	return r.Collection + " and " + r.Item
}

// idText says which property holds an item's id and how new ids are made.
func idText(r *catalog.SandboxCollection) string {
	made := map[string]string{"integer": "the next number", "uuid": "a new UUID", "string": "a value made from its schema"}[r.IDType]
	if made == "" {
		made = r.IDType
	}
	switch {
	case r.ID != "" && r.Param != "":
		return r.ID + " (in the path as {" + r.Param + "}); a created item gets " + made
	case r.ID != "":
		return r.ID + "; a created item gets " + made
	case r.Param != "":
		return "only in the path, {" + r.Param + "} (items hold no id); a created item gets " + made
	}
	return "none: items are only created and listed"
}

// seedText says what a collection holds before anyone changes it, which Reset restores.
func seedText(r *catalog.SandboxCollection) string {
	n := strconv.Itoa(r.Seed) + " " + map[bool]string{true: "item", false: "items"}[r.Seed == 1]
	switch {
	case r.Seed == 0:
		return "no item (Reset empties it)"
	case r.SeedFrom == "examples":
		return n + " from the document's examples; Reset restores them"
	case r.SeedFrom != "":
		return n + ", " + r.SeedFrom + "; Reset restores them"
	}
	return n + "; Reset restores them"
}

// pagingText says how a list pages: its style, parameters and default size.
func pagingText(p *catalog.SandboxPaging) string {
	var params []string
	for _, q := range []string{p.Limit, p.Offset, p.Page, p.Cursor} {
		if q != "" {
			params = append(params, q)
		}
	}
	out := p.Style
	if len(params) > 0 {
		out += ", with " + strings.Join(params, " and ")
	}
	if p.Default > 0 {
		out += "; " + strconv.Itoa(p.Default) + " a page unless asked"
	}
	if p.Next != "" {
		out += "; the next page in " + p.Next
	}
	if p.Total != "" {
		out += "; the count in " + p.Total
	}
	return out
}

// wrapperText says where an action's answer holds the item or list, when not at its root.
func wrapperText(r *catalog.SandboxCollection, kind string) string {
	if w := r.Wrapper[kind]; w != "" {
		return " (in the answer's " + w + ")"
	}
	return ""
}

// sourceText says who decided a collection.
func sourceText(slug, source string) string {
	switch source {
	case "inferred", "":
		return "inferred from the paths and methods"
	default:
		return fromText(slug, source)
	}
}

// fromText names where a hint came from.
func fromText(slug, from string) string {
	switch from {
	case "document":
		return "the document's x-loupe-sandbox"
	case "configuration":
		return "apis." + slug + ".sandbox_hints"
	}
	return from
}
