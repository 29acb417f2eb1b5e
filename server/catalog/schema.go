package catalog

import (
	"cmp"
	"slices"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
)

// componentPrefix starts a reference to a component schema.
const componentPrefix = "#/components/schemas/"

// schema compiles a schema proxy. stack holds the references being expanded above it: a
// reference already on the stack is a recursion and compiles to a stub marked Recursive.
func (c *compiler) schema(sp *base.SchemaProxy, stack []string) *catalog.Schema {
	if sp == nil {
		return nil
	}
	if !sp.IsReference() {
		s := sp.Schema()
		if s == nil {
			c.p.add(sp.GetValueNode(), "schema: %v", sp.GetBuildError())
			return &catalog.Schema{}
		}
		return c.build(s, stack)
	}
	ref := sp.GetReference()
	name := ref[strings.LastIndex(ref, "/")+1:]
	var out *catalog.Schema
	if slices.Contains(stack, ref) {
		out = &catalog.Schema{Recursive: true}
	} else if target := c.component(ref); target != nil {
		stack = append(slices.Clip(stack), ref)
		// A component carries its own sources: it does not inherit the referrer's.
		saved := c.inherit
		c.inherit = ""
		out = c.schema(target, stack)
		c.inherit = saved
	} else if !sp.IsTransformedRefWithSiblings() && sp.Schema() != nil {
		out = c.build(sp.Schema(), append(slices.Clip(stack), ref))
	} else {
		c.p.add(sp.GetValueNode(), "cannot resolve $ref %q (only %s<name> can carry sibling keywords)", ref, componentPrefix)
		out = &catalog.Schema{}
	}
	out.Ref = name
	// Sibling keywords (description, x-loupe-source...) annotate the reference, so they
	// apply to a recursion stub too.
	if sp.IsTransformedRefWithSiblings() {
		if sib := sp.Schema(); sib != nil {
			merge(out, c.build(sib, stack), true)
		}
	}
	return out
}

// component returns the component schema a local reference names, or nil.
func (c *compiler) component(ref string) *base.SchemaProxy {
	name, ok := strings.CutPrefix(ref, componentPrefix)
	if !ok || strings.Contains(name, "/") || c.schemas == nil {
		return nil
	}
	sp, _ := c.schemas.Get(name)
	return sp
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
