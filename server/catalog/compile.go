package catalog

import (
	"encoding/json"

	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/index"
	"github.com/pb33f/libopenapi/orderedmap"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
)

// compiler turns one built OpenAPI document into a catalog API, recording problems with
// their lines as it goes.
type compiler struct {
	slug    string
	p       *problems
	doc     *v3.Document
	schemas *orderedmap.Map[string, *base.SchemaProxy]
	// schemes holds the names of the document's security schemes.
	schemes map[string]bool
	// ids maps each operationId to the line it was first seen on.
	ids map[string]int
	// shared holds each reference's compiled schema, shared by its uses; nil while it is
	// being compiled (see schema).
	shared map[string]*catalog.Schema
	// index is the document's index, to find what a reference into a sub-schema names.
	index *index.SpecIndex
	// values validates examples against their schemas; made on first use.
	values schema_validation.SchemaValidator
	// inherit is the x-loupe-source of the nearest marked schema being compiled, which
	// unmarked properties below it take; components reset it.
	inherit string
	// rendered holds each description's HTML by its Markdown source (md).
	rendered map[string]string
	// own marks a document of your own (LoadOwn): Loupe's conventions are not asked of it
	// (see convention), only what the UI and the proxy cannot do without.
	own bool
}

// soft records a problem that a document of your own is loaded past (a warning the page
// shows: an unresolvable $ref is compiled as any value) and that stops a shipped one.
func (c *compiler) soft(node *yaml.Node, format string, args ...any) {
	if c.own {
		c.p.warnAt(node, format, args...)
		return
	}
	c.p.add(node, format, args...)
}

// convention records a breach of Loupe's own conventions (a summary, an example on every
// content...), which the shipped documents must follow and a document of your own need not.
func (c *compiler) convention(node *yaml.Node, format string, args ...any) {
	if !c.own {
		c.p.add(node, format, args...)
	}
}

// compileAPI compiles a document's info, servers, tags, security schemes and operations.
func compileAPI(slug string, doc *v3.Document, idx *index.SpecIndex, p *problems, own bool) catalog.API {
	c := &compiler{slug: slug, p: p, doc: doc, schemes: map[string]bool{}, ids: map[string]int{}, own: own,
		shared: map[string]*catalog.Schema{}, index: idx}
	if doc.Components != nil {
		c.schemas = doc.Components.Schemas
	}
	api := catalog.API{Slug: slug, Operations: []catalog.Operation{}}
	if info := doc.Info; info != nil {
		api.Title = info.Title
		api.Version = info.Version
		api.Summary = info.Summary
		api.DescriptionHTML = c.md(info.Description, lowRoot(info.GoLow()))
	}
	for _, s := range doc.Servers {
		api.Servers = append(api.Servers, s.URL)
	}
	api.Security = c.securitySchemes()
	for _, t := range doc.Tags {
		api.Tags = append(api.Tags, catalog.Tag{Name: t.Name, DescriptionHTML: c.md(t.Description, lowRoot(t.GoLow()))})
	}
	if doc.Paths != nil {
		for path, item := range doc.Paths.PathItems.FromOldest() {
			for method, op := range item.GetOperations().FromOldest() {
				api.Operations = append(api.Operations, c.operation(path, method, item, op))
			}
		}
	}
	api.Tags = addUsedTags(api.Tags, api.Operations)
	return api
}

// addUsedTags appends the tags operations use but the document does not declare.
func addUsedTags(tags []catalog.Tag, ops []catalog.Operation) []catalog.Tag {
	known := map[string]bool{}
	for _, t := range tags {
		known[t.Name] = true
	}
	for _, op := range ops {
		for _, t := range op.Tags {
			if !known[t] {
				known[t] = true
				tags = append(tags, catalog.Tag{Name: t})
			}
		}
	}
	return tags
}

// securitySchemes compiles components.securitySchemes in document order.
func (c *compiler) securitySchemes() []catalog.SecurityScheme {
	if c.doc.Components == nil {
		return nil
	}
	var out []catalog.SecurityScheme
	for name, s := range c.doc.Components.SecuritySchemes.FromOldest() {
		c.schemes[name] = true
		scheme := catalog.SecurityScheme{
			Name:            name,
			Type:            s.Type,
			Scheme:          s.Scheme,
			In:              s.In,
			ParamName:       s.Name,
			DescriptionHTML: c.md(s.Description, lowRoot(s.GoLow())),
		}
		if n := ext(s.Extensions, "x-loupe-credential-prefix"); n != nil {
			scheme.Prefix = n.Value
		}
		if f := s.Flows; f != nil {
			for _, flow := range []struct {
				name string
				f    *v3.OAuthFlow
			}{
				{"authorizationCode", f.AuthorizationCode}, {"implicit", f.Implicit},
				{"clientCredentials", f.ClientCredentials}, {"password", f.Password},
				{"deviceAuthorization", f.Device},
			} {
				if flow.f == nil {
					continue
				}
				of := catalog.OAuthFlow{
					Type: flow.name, AuthorizationURL: flow.f.AuthorizationUrl, TokenURL: flow.f.TokenUrl,
				}
				for scope, desc := range flow.f.Scopes.FromOldest() {
					of.Scopes = append(of.Scopes, catalog.Scope{Name: scope, Description: desc})
				}
				scheme.Flows = append(scheme.Flows, of)
			}
		}
		out = append(out, scheme)
	}
	return out
}

// md renders a description, recording a failure at node. A text met before is rendered once:
// large documents repeat the same descriptions at hundreds of parameters and properties
// (Kubernetes' "If 'true', then the output is pretty printed."), and the catalog then holds
// one copy of its HTML.
func (c *compiler) md(src string, node *yaml.Node) string {
	if html, ok := c.rendered[src]; ok {
		return html
	}
	html, err := renderMarkdown(src)
	if err != nil {
		c.p.add(node, "markdown: %v", err)
		return html
	}
	if c.rendered == nil {
		c.rendered = map[string]string{}
	}
	c.rendered[src] = html
	return html
}

// json encodes a YAML value as JSON, recording a failure at the node.
func (c *compiler) json(n *yaml.Node) json.RawMessage {
	raw, err := nodeJSON(n)
	if err != nil {
		c.p.add(n, "value: %v", err)
	}
	return raw
}

// source returns the x-loupe-source of an object, or def when it has none.
func (c *compiler) source(exts *orderedmap.Map[string, *yaml.Node], def string) string {
	n := ext(exts, "x-loupe-source")
	if n == nil {
		return def
	}
	switch n.Value {
	case catalog.SourceContract, catalog.SourcePublicAPI:
		return n.Value
	}
	c.p.add(n, "x-loupe-source must be %q or %q, not %q", catalog.SourceContract, catalog.SourcePublicAPI, n.Value)
	return def
}

// flag reads a boolean extension: absent is false; anything but true or false is a problem.
func (c *compiler) flag(exts *orderedmap.Map[string, *yaml.Node], name string) bool {
	n := ext(exts, name)
	if n == nil {
		return false
	}
	switch n.Value {
	case "true":
		return true
	case "false":
		return false
	}
	c.p.add(n, "%s must be true or false, not %q", name, n.Value)
	return false
}

// ext returns the named extension's node, or nil.
func ext(exts *orderedmap.Map[string, *yaml.Node], name string) *yaml.Node {
	if exts == nil {
		return nil
	}
	n, _ := exts.Get(name)
	return n
}

// rooted is a low-level model object that knows the YAML nodes it was built from.
type rooted interface {
	GetRootNode() *yaml.Node
	GetKeyNode() *yaml.Node
}

// lowRoot returns the node a low-level object was written at: its key when it has one
// (the line of "get:" rather than of the first field under it), or nil.
func lowRoot[T any, P interface {
	*T
	rooted
}](low P) *yaml.Node {
	if low == nil {
		return nil
	}
	if k := low.GetKeyNode(); k != nil {
		return k
	}
	return low.GetRootNode()
}

// lowItem returns the node of a low-level object that is an item of a list (a parameter),
// where the key node is the list's: the object's own mapping node, or nil.
func lowItem[T any, P interface {
	*T
	rooted
}](low P) *yaml.Node {
	if low == nil {
		return nil
	}
	return low.GetRootNode()
}
