// Package jsonld expands the terms of a JSON-LD document to full IRIs through
// its @context, for Loupe's JSON-LD response viewer, and extracts entity
// cards from entity search results. It uses the standard library only, so it
// compiles into the wasm app.
//
// It implements the parts of JSON-LD context processing that API responses
// use: @vocab, @base, @language, prefix definitions, term definitions as
// strings (absolute or compact IRIs, or other terms) or objects (@id, @type
// coercion, @container), nested and array contexts, and null to reset.
// Remote contexts are not fetched; they are listed in Document.Warnings.
package jsonld

import (
	"encoding/json"
	"fmt"
)

// Document is an expanded JSON-LD document, in the order it was written.
type Document struct {
	// Context lists the definitions of the top-level @context, in order,
	// with the IRI each term expands to ("" for a term mapped to null).
	Context []TermDef
	// Root is the document's top-level value.
	Root Value
	// Warnings lists what the expansion could not do (remote contexts).
	Warnings []string
}

// TermDef is one definition of a @context.
type TermDef struct {
	// Term is the key, for example "resultScore" or "@vocab".
	Term string
	// Value is the IRI or compact IRI as written, for example "goog:resultScore".
	Value string
	// IRI is the expanded IRI, for example "http://schema.googleapis.com/resultScore".
	IRI string
}

// Kind tells which of Value's fields is set.
type Kind int

// The kinds of Value.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is one JSON value of the document.
type Value struct {
	// Kind is the JSON type.
	Kind Kind
	// Bool, Number and String hold scalars. Number keeps the written digits.
	Bool   bool
	Number json.Number
	String string
	// Language is the language of a language-tagged string ({"@value", "@language"}).
	Language string
	// IRI is set on strings that are IRIs in JSON-LD (values of terms whose
	// @type is @id or @vocab), expanded.
	IRI string
	// Items are the elements of an array.
	Items []Value
	// Node is the expanded object.
	Node *Node
}

// Node is a JSON object of the document: a node or a value object.
type Node struct {
	// ID is the node's @id, nil when absent.
	ID *IRIRef
	// Types are the node's @type values.
	Types []IRIRef
	// Properties are the other keys, in document order.
	Properties []Property
}

// IRIRef is an IRI as written and as expanded.
type IRIRef struct {
	// Compact is the value as written, for example "kg:/m/0dl567" or "Person".
	Compact string
	// IRI is the expanded IRI, for example "http://g.co/kg/m/0dl567".
	IRI string
}

// Property is one key of a node with its expansion.
type Property struct {
	// Term is the key as written.
	Term string
	// IRI is the key expanded; "" when it maps to nothing (JSON-LD
	// processors drop such keys). Keywords such as @graph stay as they are.
	IRI string
	// Value is the key's value, expanded.
	Value Value
}

// Expand decodes doc and expands every term of it through its @context.
func Expand(doc []byte) (*Document, error) {
	v, err := decode(doc)
	if err != nil {
		return nil, err
	}
	d := &Document{}
	root := &activeContext{terms: map[string]termDef{}}
	e := &expander{warnings: &d.Warnings}
	if v.kind == kObject {
		if c, ok := v.get("@context"); ok {
			ctx, defs, err := process(root, c, e.warnings)
			if err != nil {
				return nil, fmt.Errorf("processing @context: %w", err)
			}
			d.Context = defs
			root = ctx
			e.skipTopContext = true
		}
	}
	d.Root, err = e.value(root, v, termDef{})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// expander walks the decoded document.
type expander struct {
	warnings       *[]string
	skipTopContext bool // the top-level @context is already processed
}

// value expands v under ctx; def is the definition of the key v belongs to.
func (e *expander) value(ctx *activeContext, v jv, def termDef) (Value, error) {
	switch v.kind {
	case kNull:
		return Value{Kind: Null}, nil
	case kBool:
		return Value{Kind: Bool, Bool: v.b}, nil
	case kNumber:
		return Value{Kind: Number, Number: v.num}, nil
	case kString:
		out := Value{Kind: String, String: v.str}
		switch def.coerce {
		case "@id":
			out.IRI = ctx.expandIRI(v.str, false, true)
		case "@vocab":
			out.IRI = ctx.expandIRI(v.str, true, true)
		}
		return out, nil
	case kArray:
		out := Value{Kind: Array, Items: make([]Value, 0, len(v.arr))}
		for _, item := range v.arr {
			x, err := e.value(ctx, item, def)
			if err != nil {
				return Value{}, err
			}
			out.Items = append(out.Items, x)
		}
		return out, nil
	}
	return e.object(ctx, v)
}

// object expands a node or value object.
func (e *expander) object(ctx *activeContext, v jv) (Value, error) {
	if c, ok := v.get("@context"); ok && !e.skipTopContext {
		var err error
		if ctx, _, err = process(ctx, c, e.warnings); err != nil {
			return Value{}, fmt.Errorf("processing nested @context: %w", err)
		}
	}
	e.skipTopContext = false
	if val, ok := v.get("@value"); ok {
		out, err := e.value(ctx, val, termDef{})
		if err != nil {
			return Value{}, err
		}
		if l, ok := v.get("@language"); ok && l.kind == kString {
			out.Language = l.str
		}
		return out, nil
	}
	n := &Node{}
	for _, m := range v.obj {
		switch m.key {
		case "@context":
			continue
		case "@id":
			if m.val.kind == kString {
				n.ID = &IRIRef{Compact: m.val.str, IRI: ctx.expandIRI(m.val.str, false, true)}
			}
			continue
		case "@type":
			for _, t := range stringsOf(m.val) {
				n.Types = append(n.Types, IRIRef{Compact: t, IRI: ctx.expandIRI(t, true, true)})
			}
			continue
		}
		def := ctx.terms[m.key]
		iri := ctx.expandIRI(m.key, true, false)
		x, err := e.value(ctx, m.val, def)
		if err != nil {
			return Value{}, fmt.Errorf("expanding %q: %w", m.key, err)
		}
		n.Properties = append(n.Properties, Property{Term: m.key, IRI: iri, Value: x})
	}
	return Value{Kind: Object, Node: n}, nil
}

// stringsOf returns a string or the strings of an array.
func stringsOf(v jv) []string {
	switch v.kind {
	case kString:
		return []string{v.str}
	case kArray:
		var out []string
		for _, x := range v.arr {
			if x.kind == kString {
				out = append(out, x.str)
			}
		}
		return out
	}
	return nil
}
