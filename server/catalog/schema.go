package catalog

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	"github.com/pb33f/libopenapi/datamodel/low"
	lowbase "github.com/pb33f/libopenapi/datamodel/low/base"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
)

// componentPrefix starts a reference to a component schema.
const componentPrefix = "#/components/schemas/"

// schema compiles a schema proxy. A reference is compiled once, the first time it is met, and
// every later use shares that one schema (marked Shared, written once in the catalog's JSON:
// see app/catalog's components); a reference met again while it is being compiled (a
// recursion) compiles to a stub marked Recursive. Sibling keywords beside a reference
// (description, x-loupe-source...) apply to a copy, never to the shared schema.
func (c *compiler) schema(sp *base.SchemaProxy, stack []string) *catalog.Schema {
	if sp == nil {
		return nil
	}
	if !sp.IsReference() {
		s := sp.Schema()
		if s == nil {
			c.soft(sp.GetValueNode(), "schema: %v", sp.GetBuildError())
			return &catalog.Schema{}
		}
		return c.build(s, stack)
	}
	ref := sp.GetReference()
	name := ref[strings.LastIndex(ref, "/")+1:]
	var out *catalog.Schema
	switch shared, done := c.shared[ref]; {
	case done && shared == nil: // being compiled: a recursion
		out = &catalog.Schema{Ref: name, Recursive: true}
	case done:
		out = shared
	default:
		c.shared[ref] = nil
		// A shared schema carries its own sources: it does not inherit the referrer's.
		saved := c.inherit
		c.inherit = ""
		out = c.target(sp, ref, stack)
		c.inherit = saved
		if out == nil {
			delete(c.shared, ref)
			c.soft(sp.GetValueNode(), "cannot resolve $ref %q: the document has nothing there", ref)
			return &catalog.Schema{Ref: name}
		}
		if out.Shared != "" || out.Recursive { // a reference to a reference: its own copy
			cp := *out
			out = &cp
		}
		out.Ref, out.Shared = name, c.sharedKey(ref)
		c.shared[ref] = out
	}
	// Sibling keywords (description, x-loupe-source...) annotate the reference, so they
	// apply to a recursion stub too.
	if sp.IsTransformedRefWithSiblings() {
		if sib := sp.Schema(); sib != nil {
			cp := *out
			cp.Shared = ""
			merge(&cp, c.build(sib, stack), true)
			out = &cp
		}
	}
	return out
}

// sharedKey names a shared schema in the catalog's components: the component's name for
// #/components/schemas/<name>, else the reference itself (a sub-schema's pointer).
func (c *compiler) sharedKey(ref string) string {
	if name, ok := strings.CutPrefix(ref, componentPrefix); ok && !strings.Contains(name, "/") {
		return name
	}
	return strings.TrimPrefix(ref, "#")
}

// target compiles the schema a local reference names: a component, or any schema inside the
// document (a component's sub-schema, #/components/schemas/A/definitions/b); nil when the
// document has nothing there.
func (c *compiler) target(sp *base.SchemaProxy, ref string, stack []string) *catalog.Schema {
	if name, ok := strings.CutPrefix(ref, componentPrefix); ok && !strings.Contains(name, "/") && c.schemas != nil {
		if t, ok := c.schemas.Get(name); ok && t != nil {
			return c.schema(t, stack)
		}
	}
	if !sp.IsTransformedRefWithSiblings() {
		if s := sp.Schema(); s != nil { // libopenapi resolved it
			return c.build(s, stack)
		}
	}
	if s := c.lookupSchema(ref); s != nil {
		return c.build(s, stack)
	}
	return nil
}

// lookupSchema finds the schema at a local reference with the document's index and builds it,
// for a reference libopenapi leaves unresolved (one with sibling keywords into a sub-schema).
func (c *compiler) lookupSchema(ref string) *base.Schema {
	if c.index == nil || !strings.HasPrefix(ref, "#/") {
		return nil
	}
	found := c.index.FindComponent(context.Background(), ref)
	if found == nil || found.Node == nil {
		return nil
	}
	lp := new(lowbase.SchemaProxy)
	if err := lp.Build(context.Background(), found.KeyNode, found.Node, c.index); err != nil {
		return nil
	}
	return base.NewSchemaProxy(&low.NodeReference[*lowbase.SchemaProxy]{Value: lp, ValueNode: found.Node}).Schema()
}

// build compiles one schema object (not a reference).
func (c *compiler) build(s *base.Schema, stack []string) *catalog.Schema {
	node := schemaNode(s)
	out := &catalog.Schema{
		Format:           s.Format,
		Title:            s.Title,
		DescriptionHTML:  c.md(s.Description, node),
		Minimum:          s.Minimum,
		Maximum:          s.Maximum,
		MinLength:        s.MinLength,
		MaxLength:        s.MaxLength,
		Pattern:          s.Pattern,
		MinItems:         s.MinItems,
		MaxItems:         s.MaxItems,
		ReadOnly:         isTrue(s.ReadOnly),
		WriteOnly:        isTrue(s.WriteOnly),
		Deprecated:       isTrue(s.Deprecated),
		Nullable:         isTrue(s.Nullable),
		Source:           c.source(s.Extensions, ""),
		Const:            c.json(s.Const),
		Default:          c.json(s.Default),
		Example:          c.json(s.Example),
		ContentMediaType: s.ContentMediaType,
		ContentEncoding:  s.ContentEncoding,
	}
	if x := s.XML; x != nil {
		out.XML = &catalog.XML{Name: x.Name, Namespace: x.Namespace, Prefix: x.Prefix, Attribute: x.Attribute, Wrapped: x.Wrapped}
	}
	// What a public-api schema contains comes from the public API too, unless marked.
	saved := c.inherit
	if out.Source != "" {
		c.inherit = out.Source
	}
	defer func() { c.inherit = saved }()
	if out.Example == nil && len(s.Examples) > 0 {
		out.Example = c.json(s.Examples[0])
	}
	c.types(out, s)
	c.exclusive(out, s)
	out.Enum = c.enum(s)

	if s.Items != nil && s.Items.IsA() && s.Items.A != nil {
		out.Items = c.schema(s.Items.A, stack)
	}
	for name, p := range s.Properties.FromOldest() {
		ps := c.schema(p, stack)
		if ps.Source == "" {
			if ps.Shared != "" || ps.Recursive {
				cp := *ps // a shared schema is never changed where it is used
				cp.Shared = ""
				ps = &cp
			}
			ps.Source = cmp.Or(c.inherit, catalog.SourceContract)
		}
		out.Properties = append(out.Properties, catalog.Property{
			Name: name, Required: slices.Contains(s.Required, name), Schema: ps,
		})
	}
	if ap := s.AdditionalProperties; ap != nil {
		if ap.IsA() && ap.A != nil {
			out.AdditionalProperties = c.schema(ap.A, stack)
		} else if ap.IsB() && ap.B {
			out.AdditionalProperties = &catalog.Schema{}
		}
	}
	var null bool
	out.OneOf, null = c.alternatives(s.OneOf, stack)
	out.Nullable = out.Nullable || null
	var anyOf []*catalog.Schema
	anyOf, null = c.alternatives(s.AnyOf, stack)
	out.AnyOf = append(out.AnyOf, anyOf...)
	out.Nullable = out.Nullable || null
	for _, alts := range []*[]*catalog.Schema{&out.OneOf, &out.AnyOf} {
		if len(*alts) == 1 && out.Type == "" && len(out.Properties) == 0 {
			alt := (*alts)[0]
			merge(out, alt, false)
			if out.Ref == "" {
				out.Ref, out.Recursive = alt.Ref, alt.Recursive
			}
			*alts = nil
		}
	}
	for _, m := range s.AllOf {
		merge(out, c.schema(m, stack), false)
	}
	if len(s.AllOf) == 1 && out.Ref == "" && s.AllOf[0].IsReference() {
		ref := s.AllOf[0].GetReference()
		out.Ref = ref[strings.LastIndex(ref, "/")+1:]
	}
	if out.Type == "" {
		switch {
		case len(out.Properties) > 0 || out.AdditionalProperties != nil:
			out.Type = "object"
		case out.Items != nil:
			out.Type = "array"
		}
	}
	return out
}

// jsonTypes are the types of JSON Schema.
var jsonTypes = []string{"string", "number", "integer", "boolean", "array", "object", "null"}

// types sets Type and Nullable from the 3.1 type list; several non-null types become anyOf
// alternatives, one per type. The OpenAPI schema leaves schema objects to JSON Schema, so
// the validator does not catch a misspelt type: this does.
func (c *compiler) types(out *catalog.Schema, s *base.Schema) {
	var named []string
	for _, t := range s.Type {
		if !slices.Contains(jsonTypes, t) {
			var at *yaml.Node
			if low := s.GoLow(); low != nil {
				at = low.Type.KeyNode
			}
			c.p.add(at, "unknown schema type %q (JSON Schema types: %s)", t, strings.Join(jsonTypes, ", "))
			continue
		}
		if t == "null" {
			out.Nullable = true
		} else {
			named = append(named, t)
		}
	}
	switch len(named) {
	case 0:
	case 1:
		out.Type = named[0]
	default:
		for _, t := range named {
			out.AnyOf = append(out.AnyOf, &catalog.Schema{Type: t})
		}
	}
}

// exclusive sets the exclusive bounds: numbers in 3.1, booleans qualifying the bounds in 3.0.
func (c *compiler) exclusive(out *catalog.Schema, s *base.Schema) {
	if v := s.ExclusiveMinimum; v != nil {
		if v.IsB() {
			out.ExclusiveMinimum = &v.B
		} else if v.A && out.Minimum != nil {
			out.ExclusiveMinimum, out.Minimum = out.Minimum, nil
		}
	}
	if v := s.ExclusiveMaximum; v != nil {
		if v.IsB() {
			out.ExclusiveMaximum = &v.B
		} else if v.A && out.Maximum != nil {
			out.ExclusiveMaximum, out.Maximum = out.Maximum, nil
		}
	}
}

// enum compiles the enum values with their meanings from x-enumDescriptions. A meaning
// for a value the enum does not list is an error (usually a typo).
func (c *compiler) enum(s *base.Schema) []catalog.EnumValue {
	descs := ext(s.Extensions, "x-enumDescriptions")
	meaning := map[string]*yaml.Node{}
	if descs != nil {
		if descs.Kind != yaml.MappingNode {
			c.p.add(descs, "x-enumDescriptions must be a map from enum value to meaning")
		} else {
			for i := 0; i+1 < len(descs.Content); i += 2 {
				meaning[descs.Content[i].Value] = descs.Content[i+1]
			}
		}
	}
	var out []catalog.EnumValue
	listed := map[string]bool{}
	for _, v := range s.Enum {
		key := scalarKey(v)
		listed[key] = true
		ev := catalog.EnumValue{Value: c.json(v)}
		if m := meaning[key]; m != nil {
			html, err := renderInline(m.Value)
			if err != nil {
				c.p.add(m, "x-enumDescriptions: %v", err)
			}
			ev.DescriptionHTML = html
		}
		out = append(out, ev)
	}
	if descs != nil && descs.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(descs.Content); i += 2 {
			if k := descs.Content[i]; !listed[k.Value] {
				c.p.add(k, "x-enumDescriptions: %q is not a value of the enum", k.Value)
			}
		}
	}
	return out
}

// alternatives compiles oneOf or anyOf members; a {type: "null"} member is dropped and
// reported as nullable, so "string or null" reads as a nullable string.
func (c *compiler) alternatives(list []*base.SchemaProxy, stack []string) ([]*catalog.Schema, bool) {
	var out []*catalog.Schema
	null := false
	for _, sp := range list {
		if !sp.IsReference() {
			if s := sp.Schema(); s != nil && len(s.Type) == 1 && s.Type[0] == "null" {
				null = true
				continue
			}
		}
		out = append(out, c.schema(sp, stack))
	}
	return out, null
}

// schemaNode returns the YAML node a schema was written at, for error lines.
func schemaNode(s *base.Schema) *yaml.Node {
	if low := s.GoLow(); low != nil {
		return low.RootNode
	}
	return nil
}

func isTrue(b *bool) bool { return b != nil && *b }
