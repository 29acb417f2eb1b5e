package catalog

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
)

// extensions reads an operation's x-loupe-* extensions: the viewer and pagination into
// their fields, every other one (x-loupe-events, x-loupe-pagination-config...) into
// Extensions as JSON.
func (c *compiler) extensions(out *catalog.Operation, exts *orderedmap.Map[string, *yaml.Node]) {
	for name, node := range exts.FromOldest() {
		if !strings.HasPrefix(name, "x-loupe-") {
			continue
		}
		switch name {
		case extSource:
			// read with the operation's other fields
		case extViewer:
			if node.Kind != yaml.ScalarNode || !slices.Contains(viewers, node.Value) {
				c.p.add(node, "%s: unknown x-loupe-viewer %q (known: %s)", out.ID, scalarKey(node), strings.Join(viewers, ", "))
				continue
			}
			out.Viewer = node.Value
		case extPagination:
			out.Pagination = c.pagination(out.ID, node)
			if out.Pagination != nil {
				c.checkPagination(out, node)
			}
		default:
			if out.Extensions == nil {
				out.Extensions = map[string]json.RawMessage{}
			}
			out.Extensions[name] = c.json(node)
		}
	}
	if out.Viewer == catalog.ViewerPaged && out.Pagination == nil {
		c.p.add(ext(exts, extViewer), "%s: x-loupe-viewer paged needs x-loupe-pagination", out.ID)
	}
}

// pagination decodes x-loupe-pagination, refusing unknown fields and styles.
func (c *compiler) pagination(id string, node *yaml.Node) *catalog.Pagination {
	raw := c.json(node)
	var p catalog.Pagination
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		c.p.add(node, "%s: x-loupe-pagination: %v", id, err)
		return nil
	}
	if !slices.Contains(paginationStyles, p.Style) {
		c.p.add(node, "%s: x-loupe-pagination: unknown style %q (known: %s)", id, p.Style, strings.Join(paginationStyles, ", "))
	}
	if p.Links != "" && p.Links != "body" && p.Links != "header" {
		c.p.add(node, "%s: x-loupe-pagination: links is body or header, not %q", id, p.Links)
	}
	if p.Results == "" && p.Links != "header" {
		c.p.add(node, "%s: x-loupe-pagination: results (the field holding the items) is required", id)
	}
	return &p
}

// checkPagination checks that the fields x-loupe-pagination names are in the success
// response's schema (dots walk into objects) and its token parameter is a query parameter:
// the paged viewer reads them.
func (c *compiler) checkPagination(op *catalog.Operation, node *yaml.Node) {
	var body *catalog.Schema
	for _, r := range op.Responses {
		if strings.HasPrefix(r.Status, "2") && r.Schema != nil {
			body = r.Schema
			break
		}
	}
	if body == nil {
		c.p.add(node, "%s: x-loupe-pagination: no 2XX response with a schema", op.ID)
		return
	}
	pg := op.Pagination
	fields := []struct{ role, field string }{{"results", pg.Results}, {"count", pg.Count}}
	if pg.Links != "header" { // with header links, next and previous are rel values
		fields = append(fields, struct{ role, field string }{"next", pg.Next}, struct{ role, field string }{"previous", pg.Previous})
	}
	for _, f := range fields {
		if f.field != "" && !hasField(body, f.field) {
			c.p.add(node, "%s: x-loupe-pagination: %s field %q is not in the response schema", op.ID, f.role, f.field)
		}
	}
	if pg.TokenParam != "" && !slices.ContainsFunc(op.Parameters, func(p catalog.Parameter) bool {
		return p.In == "query" && p.Name == pg.TokenParam
	}) {
		c.p.add(node, "%s: x-loupe-pagination: tokenParam %q is not a query parameter", op.ID, pg.TokenParam)
	}
}

// hasField reports whether a dotted path of properties exists in a schema.
func hasField(s *catalog.Schema, path string) bool {
	for _, name := range strings.Split(path, ".") {
		if s == nil {
			return false
		}
		i := propertyIndex(s.Properties, name)
		if i < 0 {
			return false
		}
		s = s.Properties[i].Schema
	}
	return true
}

// security returns an operation's security alternatives: its own security when it has the
// key (an empty list means none), else the document's.
func (c *compiler) security(op *v3.Operation) []catalog.SecurityRequirement {
	reqs := c.doc.Security
	if low := op.GoLow(); low != nil && !low.Security.IsEmpty() {
		reqs = op.Security
	}
	var out []catalog.SecurityRequirement
	for _, r := range reqs {
		sr := catalog.SecurityRequirement{Schemes: []catalog.SchemeScopes{}}
		for name, scopes := range r.Requirements.FromOldest() {
			if !c.schemes[name] {
				c.p.add(requirementNode(r), "%s: security requirement names unknown scheme %q", op.OperationId, name)
			}
			sr.Schemes = append(sr.Schemes, catalog.SchemeScopes{Scheme: name, Scopes: scopes})
		}
		out = append(out, sr)
	}
	return out
}

// requirementNode returns the node of one security requirement (the list item), or nil.
func requirementNode(r *base.SecurityRequirement) *yaml.Node {
	if low := r.GoLow(); low != nil {
		return low.GetRootNode()
	}
	return nil
}
