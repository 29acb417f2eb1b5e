package fromdoc

import (
	"encoding/json"
	"net/http"

	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// Model is what the sandbox decided about its document: the collections it keeps (each with
// its operations, id, pagination and filters), the operations answered from the document
// alone, and why. GET /sandbox/<slug>/_sandbox/inference answers it as JSON for the API's
// page; x-loupe-sandbox in the document, or apis.<slug>.sandbox in the configuration,
// overrides it (hints.go).
type Model struct {
	Resources []*Resource `json:"resources"`
	// Stateless lists the operations answered from the document alone (examples or values
	// made from the schema), by page name.
	Stateless []string `json:"stateless"`
	// Hints are the hints followed instead of the inference, from the document's
	// x-loupe-sandbox and the configuration's apis.<slug>.sandbox_hints.
	Hints []AppliedHint `json:"hints"`
	// Notes say what the inference could not decide, and what to set to decide it.
	Notes []string `json:"notes,omitempty"`

	actions map[*operation]*action
}

// Resource is one collection the sandbox keeps per user.
type Resource struct {
	// Name is the collection's last path segment (pets), or the hint's name.
	Name string `json:"name"`
	// Collection is the collection's path template (/owners/{ownerId}/pets); Item the item's
	// (/owners/{ownerId}/pets/{petId}); Param the item path's parameter (petId). Items are
	// kept per value of the collection path's own parameters.
	Collection string `json:"collection"`
	Item       string `json:"item,omitempty"`
	Param      string `json:"param,omitempty"`
	// ID is the item property that holds the id ("" when the items have none: then the id is
	// the path's only), IDType how new ids are made: integer (the next number), uuid, or
	// string (made from the property's schema).
	ID     string `json:"id,omitempty"`
	IDType string `json:"idType"`
	// Operations maps each action (list, create, read, replace, update, delete) to the
	// operation that does it, by page name.
	Operations map[string]string `json:"operations"`
	// Wrapper is where the item or the list sits in an answer when not at its root: the
	// property of each operation's answer, by action.
	Wrapper map[string]string `json:"wrapper,omitempty"`
	// Pagination is how the list operation pages, when it does.
	Pagination *Paging `json:"pagination,omitempty"`
	// Filters are the list operation's query parameters that filter by an item property.
	Filters []string `json:"filters,omitempty"`
	// Seed is how many items the collection starts with (and Reset comes back to); SeedFrom
	// says where they come from: the document's examples, else made from the item's schema.
	Seed     int    `json:"seed"`
	SeedFrom string `json:"seedFrom,omitempty"`
	// Source says who decided: inferred, FromDocument (x-loupe-sandbox) or FromConfiguration
	// (apis.<slug>.sandbox_hints).
	Source string `json:"source"`
	// Notes say what was guessed, or left out and why.
	Notes []string `json:"notes,omitempty"`

	item     itemSchema
	seedOnce func() // fills seeds, Seed and SeedFrom, once (seedItems)
	seeds    []map[string]any
	shared   func() *scope // the seed's collection, shared by the sessions that read it
}

// seedScope returns the seed's collection, made once and never changed.
func (r *Resource) seedScope() *scope {
	if r.shared == nil { // a resource made by hand (tests)
		return seeded(r)
	}
	return r.shared()
}

// seedItems returns the collection's seed, made on first use.
func (r *Resource) seedItems() []map[string]any {
	if r.seedOnce != nil {
		r.seedOnce()
	}
	return r.seeds
}

// itemSchema is the schema of one item, from the operation whose answer is the item.
type itemSchema struct {
	raw any               // plain values
	at  string            // its name in errors
	sp  *base.SchemaProxy // for the checker
}

// Paging says how a list operation pages.
type Paging struct {
	// Style is offset (limit and offset), page (a page number and size) or cursor.
	Style string `json:"style"`
	// Limit, Offset, Page and Cursor are the query parameters of each role, when present.
	Limit  string `json:"limit,omitempty"`
	Offset string `json:"offset,omitempty"`
	Page   string `json:"page,omitempty"`
	Cursor string `json:"cursor,omitempty"`
	// Next is the answer's property that carries the next page's cursor or link; Total the
	// one that counts every item.
	Next  string `json:"next,omitempty"`
	Total string `json:"total,omitempty"`
	// Default is the page size when the request gives none.
	Default int `json:"default"`
}

// action is what one operation does to a resource.
type action struct {
	kind string // list, create, read, replace, update, delete
	res  *Resource
	op   *operation
}

// action returns the collection action of an operation, or nil when it is stateless.
func (m *Model) action(o *operation) *action { return m.actions[o] }

// serveInference answers GET _sandbox/inference with the Model.
func (s *Sandbox) serveInference(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		(&problem{Status: http.StatusMethodNotAllowed, Detail: "read what the sandbox inferred with GET", allow: []string{"GET", "HEAD"}}).write(w, r)
		return
	}
	for _, r := range s.model.Resources {
		r.seedItems() // the seed's size and origin are part of the answer
	}
	body, _ := json.Marshal(s.model)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
