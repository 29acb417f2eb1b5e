package jsonld

import (
	"fmt"
	"strconv"
)

// IRIs the entity cards are read by. Matching expanded IRIs rather than
// keys makes the cards independent of the terms a context chooses.
const (
	schema                 = "http://schema.org/"
	goog                   = "http://schema.googleapis.com/"
	iriItemListElement     = schema + "itemListElement"
	iriResult              = schema + "result"
	iriName                = schema + "name"
	iriDescription         = schema + "description"
	iriImage               = schema + "image"
	iriURL                 = schema + "url"
	iriContentURL          = schema + "contentUrl"
	iriLicense             = schema + "license"
	iriArticleBody         = schema + "articleBody"
	iriResultScore         = goog + "resultScore"
	iriDetailedDescription = goog + "detailedDescription"
)

// Entity is one entity card of an entity search response.
type Entity struct {
	// ID is the @id as written (for example "kg:/m/0dl567") and IRI its expansion.
	ID, IRI string
	// Name is the name in the first language of the response.
	Name string
	// Names are all the names with their languages ("" when untagged).
	Names []LangString
	// Types are the @type values as written ("Thing", "Person") and TypeIRIs their expansions.
	Types, TypeIRIs []string
	// Description is the short description in the first language.
	Description string
	// Image is the picture, nil when absent.
	Image *Image
	// Detailed is the detailed description, nil when absent.
	Detailed *Detailed
	// URL is the official website.
	URL string
	// ResultScore is the item's score; HasScore tells whether it was present.
	ResultScore float64
	HasScore    bool
}

// LangString is a string with its language.
type LangString struct {
	Language, Value string
}

// Image is an entity's image.
type Image struct {
	URL, ContentURL, License string
}

// Detailed is an entity's detailed description.
type Detailed struct {
	ArticleBody, URL, License string
}

// Entities expands doc and returns the entities of its itemListElement
// (each item's result with the item's resultScore), in order. A document
// without itemListElement whose root is itself a named node yields that node.
func Entities(doc []byte) ([]Entity, error) {
	d, err := Expand(doc)
	if err != nil {
		return nil, err
	}
	root := d.Root.Node
	if root == nil {
		return nil, fmt.Errorf("reading entities: the document is a %s, not an object", kindName(kind(d.Root.Kind)))
	}
	items, ok := root.prop(iriItemListElement)
	if !ok {
		if _, named := root.prop(iriName); named {
			return []Entity{entity(root, nil)}, nil
		}
		return nil, nil
	}
	var out []Entity
	for _, it := range items.all() {
		item := it.Node
		if item == nil {
			continue
		}
		res, ok := item.prop(iriResult)
		if !ok || res.Node == nil {
			continue
		}
		out = append(out, entity(res.Node, item))
	}
	return out, nil
}

func entity(n, item *Node) Entity {
	e := Entity{}
	if n.ID != nil {
		e.ID, e.IRI = n.ID.Compact, n.ID.IRI
	}
	for _, t := range n.Types {
		e.Types = append(e.Types, t.Compact)
		e.TypeIRIs = append(e.TypeIRIs, t.IRI)
	}
	if v, ok := n.prop(iriName); ok {
		e.Names = langStrings(v)
		e.Name = first(e.Names)
	}
	if v, ok := n.prop(iriDescription); ok {
		e.Description = first(langStrings(v))
	}
	e.URL = n.text(iriURL)
	if v, ok := n.prop(iriImage); ok {
		if img := firstNode(v); img != nil {
			e.Image = &Image{URL: img.text(iriURL), ContentURL: img.text(iriContentURL), License: img.text(iriLicense)}
		} else if v.Kind == String {
			e.Image = &Image{ContentURL: v.String}
		}
	}
	if v, ok := n.prop(iriDetailedDescription); ok {
		if dd := firstNode(v); dd != nil {
			e.Detailed = &Detailed{ArticleBody: dd.text(iriArticleBody), URL: dd.text(iriURL), License: dd.text(iriLicense)}
		}
	}
	if item != nil {
		if v, ok := item.prop(iriResultScore); ok && v.Kind == Number {
			if f, err := strconv.ParseFloat(string(v.Number), 64); err == nil {
				e.ResultScore, e.HasScore = f, true
			}
		}
	}
	return e
}

// prop returns the value of the first property expanding to iri.
func (n *Node) prop(iri string) (Value, bool) {
	for _, p := range n.Properties {
		if p.IRI == iri {
			return p.Value, true
		}
	}
	return Value{}, false
}

// text returns the first string of the property expanding to iri.
func (n *Node) text(iri string) string {
	v, ok := n.prop(iri)
	if !ok {
		return ""
	}
	return first(langStrings(v))
}

// all returns an array's items, or the value itself.
func (v Value) all() []Value {
	if v.Kind == Array {
		return v.Items
	}
	return []Value{v}
}

func langStrings(v Value) []LangString {
	var out []LangString
	for _, x := range v.all() {
		if x.Kind == String {
			out = append(out, LangString{Language: x.Language, Value: x.String})
		}
	}
	return out
}

func first(ls []LangString) string {
	if len(ls) == 0 {
		return ""
	}
	return ls[0].Value
}

func firstNode(v Value) *Node {
	for _, x := range v.all() {
		if x.Node != nil {
			return x.Node
		}
	}
	return nil
}
