package catalog

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
)

// Extensions the compiler reads itself; every other x-loupe-* extension of an operation is
// passed on in Operation.Extensions.
const (
	extViewer     = "x-loupe-viewer"
	extPagination = "x-loupe-pagination"
	extSource     = "x-loupe-source"
	extPrefill    = "x-loupe-prefill"
)

// viewers are the known x-loupe-viewer values.
var viewers = []string{catalog.ViewerJSON, catalog.ViewerJSONLD, catalog.ViewerChat, catalog.ViewerHTML, catalog.ViewerPaged, catalog.ViewerAudit}

// paginationStyles are the known x-loupe-pagination styles.
var paginationStyles = []string{"page-number", "limit-offset", "cursor", "page-token"}

// operation compiles one method of a path and checks the conventions: an operationId unique
// in the document, a summary, a response, known extension values, declared path parameters.
func (c *compiler) operation(path, method string, item *v3.PathItem, op *v3.Operation) catalog.Operation {
	at := lowRoot(op.GoLow())
	if at == nil {
		at = lowRoot(item.GoLow())
	}
	out := catalog.Operation{
		ID:              op.OperationId,
		API:             c.slug,
		Method:          strings.ToUpper(method),
		Path:            path,
		Summary:         op.Summary,
		DescriptionHTML: c.md(op.Description, at),
		Tags:            op.Tags,
		Deprecated:      isTrue(op.Deprecated),
		Source:          c.source(op.Extensions, catalog.SourceContract),
		Parameters:      []catalog.Parameter{},
		Responses:       []catalog.Response{},
		Viewer:          catalog.ViewerJSON,
	}
	where := out.Method + " " + path
	if c.own {
		// Pages are named by operationId: a document of your own gets one where it has none.
		out.ID = c.ownID(op.OperationId, out.Method, path)
		if strings.TrimSpace(out.Summary) == "" {
			out.Summary = where
		}
	}
	switch line, dup := c.ids[out.ID]; {
	case out.ID == "":
		c.p.add(at, "%s: missing operationId", where)
	case dup:
		c.p.add(op.GoLow().OperationId.ValueNode, "%s: duplicate operationId %q (first used on line %d)", where, op.OperationId, line)
	default:
		c.ids[out.ID] = lineOf(op.GoLow().OperationId.ValueNode)
	}
	if strings.TrimSpace(out.Summary) == "" {
		c.p.add(at, "%s: missing summary", where)
	}

	out.Parameters = c.parameters(item.Parameters, op.Parameters)
	c.checkPathParams(path, out.Parameters, at)
	if op.RequestBody != nil {
		out.Body = c.requestBody(where, op.RequestBody)
	}
	if op.Responses != nil {
		for code, r := range op.Responses.Codes.FromOldest() {
			out.Responses = append(out.Responses, c.responses(where, code, r)...)
		}
		if op.Responses.Default != nil {
			out.Responses = append(out.Responses, c.responses(where, "default", op.Responses.Default)...)
		}
	}
	if len(out.Responses) == 0 {
		c.convention(at, "%s: no responses", where)
	}
	for _, r := range out.Responses {
		out.Streaming = out.Streaming || r.ContentType == "text/event-stream"
	}
	out.Security = c.security(op)
	c.extensions(&out, op.Extensions)
	return out
}

// parameters merges the path item's parameters with the operation's: an operation parameter
// replaces the path-level one with the same name and location. The same parameter twice in
// one list is an error.
func (c *compiler) parameters(shared, own []*v3.Parameter) []catalog.Parameter {
	out := []catalog.Parameter{}
	index := map[string]int{}
	for _, list := range [][]*v3.Parameter{shared, own} {
		inList := map[string]bool{}
		for _, p := range list {
			cp := c.parameter(p)
			key := cp.In + " " + cp.Name
			if inList[key] {
				c.convention(lowItem(p.GoLow()), "%s parameter %q is listed twice", cp.In, cp.Name)
			}
			inList[key] = true
			if i, ok := index[key]; ok {
				out[i] = cp
				continue
			}
			index[key] = len(out)
			out = append(out, cp)
		}
	}
	return out
}

// parameter compiles one parameter. An array in the query sent exploded (explode: true, or
// style form, the default) is Repeatable: name=a&name=b.
func (c *compiler) parameter(p *v3.Parameter) catalog.Parameter {
	at := lowItem(p.GoLow())
	out := catalog.Parameter{
		Name:            p.Name,
		In:              p.In,
		DescriptionHTML: c.md(p.Description, at),
		Required:        isTrue(p.Required),
		Deprecated:      p.Deprecated,
		Source:          c.source(p.Extensions, catalog.SourceContract),
		Schema:          c.schema(p.Schema, nil),
		Example:         c.json(p.Example),
		Prefill:         c.flag(p.Extensions, extPrefill),
	}
	if out.Schema == nil {
		for ct, mt := range p.Content.FromOldest() {
			out.Schema = c.schema(mt.Schema, nil)
			out.ContentType = ct
			break
		}
	}
	out.Style, out.Explode, out.AllowReserved = p.Style, p.Explode, p.AllowReserved
	if out.Schema == nil {
		c.convention(at, "parameter %q has no schema", p.Name)
		out.Schema = &catalog.Schema{}
	}
	if out.Example == nil {
		out.Example = c.firstExample(p.Examples)
	}
	if out.Schema.Type == "array" {
		style := p.Style
		if style == "" && (p.In == "query" || p.In == "cookie") {
			style = "form"
		}
		explode := style == "form"
		if p.Explode != nil {
			explode = *p.Explode
		}
		out.Repeatable = explode && p.In == "query"
	}
	return out
}

// checkPathParams reports path templates without a path parameter and the reverse.
func (c *compiler) checkPathParams(path string, params []catalog.Parameter, at *yaml.Node) {
	inPath := map[string]bool{}
	for _, name := range catalog.PathVars(path) {
		inPath[name] = true
	}
	declared := map[string]bool{}
	for _, p := range params {
		if p.In == "path" {
			declared[p.Name] = true
			if !inPath[p.Name] {
				c.convention(at, "%s: path parameter %q is not in the path", path, p.Name)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(inPath)) {
		if !declared[name] {
			c.convention(at, "%s: {%s} has no path parameter", path, name)
		}
	}
}

// requestBody compiles a request body, choosing application/json when it is offered. It
// must have an example: the UI fills the form with it.
func (c *compiler) requestBody(where string, rb *v3.RequestBody) *catalog.RequestBody {
	out := &catalog.RequestBody{
		Required:        isTrue(rb.Required),
		DescriptionHTML: c.md(rb.Description, lowRoot(rb.GoLow())),
	}
	ct, mt := pickContent(rb.Content)
	if mt != nil {
		out.ContentType = ct
		out.Schema = c.schema(mt.Schema, nil)
		out.Encoding = c.encoding(mt)
		out.Example = c.mediaExample(mt, out.Schema)
		c.checkExamples(where+" request body", ct, mt.Schema, mt.Example, mt.Examples)
		if out.Example == nil {
			c.convention(lowRoot(mt.GoLow()), "%s: request body %s has no example", where, ct)
		}
	}
	if orderedmap.Len(rb.Content) > 1 {
		// Every media type, in the document's order, for the form's content-type choice.
		for other, omt := range rb.Content.FromOldest() {
			if other == ct {
				out.Media = append(out.Media, catalog.BodyMedia{ContentType: ct, Schema: out.Schema, Encoding: out.Encoding, Example: out.Example})
				continue
			}
			m := catalog.BodyMedia{ContentType: other, Schema: c.schema(omt.Schema, nil), Encoding: c.encoding(omt)}
			m.Example = c.mediaExample(omt, m.Schema)
			c.checkExamples(where+" request body", other, omt.Schema, omt.Example, omt.Examples)
			out.Media = append(out.Media, m)
		}
	}
	return out
}

// pickContent returns application/json when present, else the first content type.
func pickContent(content *orderedmap.Map[string, *v3.MediaType]) (string, *v3.MediaType) {
	if mt, ok := getOK(content, "application/json"); ok {
		return "application/json", mt
	}
	for ct, mt := range content.FromOldest() {
		return ct, mt
	}
	return "", nil
}

// responses compiles one status: one Response per content type (a chat answer is both
// application/json and text/event-stream), or a single one without content. Each content
// type must have an example: the UI shows it before the first call.
func (c *compiler) responses(where, status string, r *v3.Response) []catalog.Response {
	base := catalog.Response{
		Status:          status,
		DescriptionHTML: c.md(r.Description, lowRoot(r.GoLow())),
		Source:          c.source(r.Extensions, catalog.SourceContract),
	}
	if orderedmap.Len(r.Content) == 0 {
		return []catalog.Response{base}
	}
	var out []catalog.Response
	for ct, mt := range r.Content.FromOldest() {
		resp := base
		resp.ContentType = ct
		resp.Schema = c.schema(mt.Schema, nil)
		resp.Example = c.mediaExample(mt, resp.Schema)
		c.checkExamples(where+" response "+status+" "+ct, ct, mt.Schema, mt.Example, mt.Examples)
		if resp.Example == nil {
			c.convention(lowRoot(mt.GoLow()), "%s: response %s %s has no example", where, status, ct)
		}
		out = append(out, resp)
	}
	return out
}

// mediaExample returns a media type's example, the first of its examples, or else the
// schema's own example.
func (c *compiler) mediaExample(mt *v3.MediaType, s *catalog.Schema) json.RawMessage {
	if mt.Example != nil {
		return c.json(mt.Example)
	}
	if ex := c.firstExample(mt.Examples); ex != nil {
		return ex
	}
	if s != nil {
		return s.Example
	}
	return nil
}

// firstExample returns the value of the first named example, or nil.
func (c *compiler) firstExample(examples *orderedmap.Map[string, *base.Example]) json.RawMessage {
	for _, ex := range examples.FromOldest() {
		if ex.Value != nil {
			return c.json(ex.Value)
		}
		if ex.DataValue != nil {
			return c.json(ex.DataValue)
		}
	}
	return nil
}

// getOK is a nil-safe lookup in an ordered map.
func getOK[V any](m *orderedmap.Map[string, V], key string) (V, bool) {
	if m == nil {
		var zero V
		return zero, false
	}
	return m.Get(key)
}

// encoding compiles a form media type's encoding object, by property name.
func (c *compiler) encoding(mt *v3.MediaType) map[string]catalog.Encoding {
	if orderedmap.Len(mt.Encoding) == 0 {
		return nil
	}
	out := map[string]catalog.Encoding{}
	for name, e := range mt.Encoding.FromOldest() {
		enc := catalog.Encoding{ContentType: e.ContentType, Style: e.Style, Explode: e.Explode, AllowReserved: e.AllowReserved}
		for hname, h := range e.Headers.FromOldest() {
			hp := catalog.Parameter{Name: hname, In: "header", Required: h.Required, Schema: c.schema(h.Schema, nil),
				DescriptionHTML: c.md(h.Description, lowRoot(h.GoLow())), Source: catalog.SourceContract}
			if hp.Schema == nil {
				hp.Schema = &catalog.Schema{}
			}
			enc.Headers = append(enc.Headers, hp)
		}
		out[name] = enc
	}
	return out
}
