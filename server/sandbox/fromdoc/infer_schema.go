package fromdoc

import (
	"slices"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// findItemSchema finds what an item is: the JSON answer of the item's GET, else of its PUT or
// PATCH, else of the POST, each where the item sits in it, else the items of the list.
func (d *Document) findItemSchema(res *Resource, acts map[string]*operation) bool {
	for _, kind := range []string{"read", "replace", "update", "create", "list"} {
		o := acts[kind]
		if o == nil {
			continue
		}
		code, media, ok := successJSON(o)
		if !ok {
			continue
		}
		raw, at, sp := d.bodySchema(o, code, media)
		if raw == nil {
			continue
		}
		path, ok := d.wrapperOf(res, raw, kind == "list")
		if !ok {
			continue
		}
		steps := splitPath(path)
		inner, innerAt := raw, at
		for _, s := range steps {
			f, fat, err := newGen(d.root, 0, Response, Choices{}).flatten(inner, innerAt)
			if err != nil {
				return false
			}
			inner, innerAt = obj(f["properties"])[s], fat
			sp = property(sp, s)
		}
		if kind == "list" {
			f, fat, err := newGen(d.root, 0, Response, Choices{}).flatten(inner, innerAt)
			if err != nil || f["items"] == nil {
				continue
			}
			inner, innerAt, sp = f["items"], fat, itemsOf(sp)
		}
		if f, _, err := newGen(d.root, 0, Response, Choices{}).flatten(inner, innerAt); err != nil || impliedKind(f) != "object" {
			continue
		}
		if ref := str(obj(inner), "$ref"); ref != "" {
			innerAt = ref
		}
		res.item = itemSchema{raw: inner, at: innerAt, sp: sp}
		return true
	}
	return false
}

// locate returns where the item (or the list, for list) sits in an operation's JSON answer:
// "" at its root, else the property that holds it.
func (d *Document) locate(res *Resource, o *operation, list bool) (string, bool) {
	code, media, ok := successJSON(o)
	if !ok {
		return "", o.Method == "DELETE" // a DELETE may answer nothing
	}
	raw, _, _ := d.bodySchema(o, code, media)
	if raw == nil {
		return "", o.Method == "DELETE"
	}
	return d.wrapperOf(res, raw, list)
}

// wrapperNames are the properties that usually hold an answer's item or list, in order.
var wrapperNames = []string{"data", "items", "results", "result", "item", "records", "values", "content", "entries", "elements", "list", "resource"}

// wrapperOf finds where an item (or a list of items) sits in a schema: at the root when the
// schema is one (same $ref as the item, or an object, or for a list an array), else in the
// property of a wrapper object (data, items, results..., or the collection's name).
func (d *Document) wrapperOf(res *Resource, raw any, list bool) (string, bool) {
	g := newGen(d.root, 0, Response, Choices{})
	f, _, err := g.flatten(raw, "")
	if err != nil {
		return "", false
	}
	itemRef := ""
	if res.item.raw != nil {
		itemRef = refOf(d, res.item.raw)
	}
	kind := impliedKind(f)
	if list && kind == "array" {
		return "", true
	}
	if kind != "object" {
		return "", false
	}
	if list {
		props := obj(f["properties"])
		names := append(slices.Clone(wrapperNames), res.Name, singular(res.Name))
		names = append(names, keysOf(props)...)
		for _, n := range names {
			pf, _, err := g.flatten(props[n], "")
			if props[n] == nil || err != nil || impliedKind(pf) != "array" {
				continue
			}
			items, _, err := g.flatten(pf["items"], "")
			if err == nil && impliedKind(items) == "object" && (itemRef == "" || refOf(d, pf["items"]) == itemRef || res.item.raw == nil) {
				return n, true
			}
		}
		return "", false
	}
	if itemRef != "" && refOf(d, raw) == itemRef {
		return "", true
	}
	return d.wrappedObject(f, res, itemRef), true
}

// wrappedObject finds the property of f that holds the item: one of the wrapper names (or the
// singular of the collection's) whose schema is the item's ($ref) or the only object property.
func (d *Document) wrappedObject(f map[string]any, res *Resource, itemRef string) string {
	props := obj(f["properties"])
	g := newGen(d.root, 0, Response, Choices{})
	names := append(slices.Clone(wrapperNames), singular(res.Name), res.Name)
	for _, n := range names {
		p, ok := props[n]
		if !ok {
			continue
		}
		pf, _, err := g.flatten(p, "")
		if err != nil || impliedKind(pf) != "object" {
			continue
		}
		if itemRef != "" && refOf(d, p) == itemRef {
			return n
		}
		if itemRef == "" && len(props) <= 3 {
			return n
		}
	}
	return ""
}

// impliedKind is a flattened schema's type: its first non-null type, else what its keywords
// imply.
func impliedKind(f map[string]any) string {
	if ts, ok := types(f); ok {
		for _, t := range ts {
			if t != "null" {
				return t
			}
		}
	}
	if _, ok := alternatives(f); ok != "" {
		return "mixed"
	}
	return impliedType(f)
}

// refOf is the last $ref a schema goes through ("" for an inline schema).
func refOf(d *Document, raw any) string {
	_, ref, _ := deref(d.root, raw)
	return ref
}

// singular makes a collection's name singular: pets → pet, categories → category.
func singular(s string) string {
	switch {
	case strings.HasSuffix(s, "ies"):
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "sses"), strings.HasSuffix(s, "xes"):
		return s[:len(s)-2]
	case strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss"):
		return s[:len(s)-1]
	}
	return s
}

// splitPath splits a wrapper path (data.items) into its properties.
func splitPath(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p, ".")
}

// property returns the schema of a property of sp, looking into allOf parts.
func property(sp *base.SchemaProxy, name string) *base.SchemaProxy {
	if sp == nil {
		return nil
	}
	s := sp.Schema()
	if s == nil {
		return nil
	}
	if s.Properties != nil {
		if p := s.Properties.GetOrZero(name); p != nil {
			return p
		}
	}
	for _, part := range s.AllOf {
		if p := property(part, name); p != nil {
			return p
		}
	}
	return nil
}

// itemsOf returns the items schema of an array schema sp.
func itemsOf(sp *base.SchemaProxy) *base.SchemaProxy {
	if sp == nil {
		return nil
	}
	s := sp.Schema()
	if s == nil || s.Items == nil || !s.Items.IsA() {
		return nil
	}
	return s.Items.A
}
