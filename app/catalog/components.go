package catalog

import "encoding/json"

// A schema the document shares by reference ($ref) is compiled once and shared by every use
// (Schema.Shared names it). In JSON it is written once, in the "components" of the API (or of
// an operation sent on its own, /catalog/<api>/<id>.json), and each use as {"shared": name}:
// the catalog grows with the document, not with how often a schema is used. Decoding resolves
// every use to the one schema again, so that what the app reads is whole: the decoded schemas
// form a graph without cycles (a schema that contains itself holds a stub marked Recursive
// where it would repeat), shared, never to be changed in place.

// MarshalJSON writes the API with its shared schemas in "components": those that the
// operations it carries whole (not Partial) use.
func (a API) MarshalJSON() ([]byte, error) {
	type plain API
	ops := make([]opInAPI, len(a.Operations))
	table := map[string]*Schema{}
	for i := range a.Operations {
		ops[i] = opInAPI(a.Operations[i])
		collectOperation(&a.Operations[i], table)
	}
	return json.Marshal(struct {
		plain
		Operations []opInAPI              `json:"operations"`
		Components map[string]*fullSchema `json:"components,omitempty"`
	}{plain(a), ops, fullTable(table)})
}

// UnmarshalJSON reads an API and resolves every use of a shared schema to it.
func (a *API) UnmarshalJSON(b []byte) error {
	var w apiWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*a = w.api()
	return nil
}

// apiWire is an API as written, read without the UnmarshalJSON of its operations: inside an
// API they carry no components of their own, and json.Unmarshal calling a method per
// operation would check and scan each operation's bytes twice more.
type apiWire struct {
	plainAPI
	Operations []opInAPI          `json:"operations"`
	Components map[string]*Schema `json:"components"`
}

// plainAPI is API without its methods.
type plainAPI API

// api returns the API read, each use of a shared schema resolved to it.
func (w *apiWire) api() API {
	a := API(w.plainAPI)
	if w.Operations != nil {
		a.Operations = make([]Operation, len(w.Operations))
		for i := range w.Operations {
			a.Operations[i] = Operation(w.Operations[i])
		}
	}
	r := resolver{table: w.Components, done: map[*Schema]bool{}}
	for i := range a.Operations {
		r.operation(&a.Operations[i])
	}
	return a
}

// Decode reads a catalog written as JSON (/catalog.json, a page catalog). It gives what
// json.Unmarshal into a Catalog gives, reading each byte once: the app decodes a catalog while
// the page starts, where each further pass over the APIs' and operations' bytes (one per
// UnmarshalJSON method on the way) is time the visitor waits.
func Decode(b []byte) (*Catalog, error) {
	type plainCatalog Catalog
	var w struct {
		plainCatalog
		APIs []apiWire `json:"apis"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	c := Catalog(w.plainCatalog)
	if w.APIs != nil {
		c.APIs = make([]API, len(w.APIs))
		for i := range w.APIs {
			c.APIs[i] = w.APIs[i].api()
		}
	}
	return &c, nil
}

// MarshalJSON writes an operation on its own, with the shared schemas it uses in "components".
func (op Operation) MarshalJSON() ([]byte, error) {
	type plain Operation
	table := map[string]*Schema{}
	collectOperation(&op, table)
	return json.Marshal(struct {
		plain
		Components map[string]*fullSchema `json:"components,omitempty"`
	}{plain(op), fullTable(table)})
}

// UnmarshalJSON reads an operation and, when it carries its components (sent on its own),
// resolves every use of a shared schema to it. Inside an API, the API resolves them.
func (op *Operation) UnmarshalJSON(b []byte) error {
	type plain Operation
	var v struct {
		*plain
		Components map[string]*Schema `json:"components"`
	}
	v.plain = (*plain)(op)
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Components != nil {
		r := resolver{table: v.Components, done: map[*Schema]bool{}}
		r.operation(op)
	}
	return nil
}

// MarshalJSON writes a use of a shared schema as {"shared": name}, any other schema whole.
func (s *Schema) MarshalJSON() ([]byte, error) {
	if s.Shared != "" {
		return json.Marshal(struct {
			Shared string `json:"shared"`
		}{s.Shared})
	}
	type plain Schema
	return json.Marshal((*plain)(s))
}

// opInAPI is an operation written inside its API, whose components the API carries.
type opInAPI Operation

// MarshalJSON writes the operation without components of its own.
func (op opInAPI) MarshalJSON() ([]byte, error) {
	type plain Operation
	return json.Marshal(plain(op))
}

// fullSchema is a shared schema written whole, in a components table.
type fullSchema Schema

// MarshalJSON writes the schema itself; the shared schemas inside it are uses.
func (f *fullSchema) MarshalJSON() ([]byte, error) {
	s := Schema(*f)
	s.Shared = ""
	return s.MarshalJSON()
}

// fullTable is the components table as written; nil when empty.
func fullTable(table map[string]*Schema) map[string]*fullSchema {
	if len(table) == 0 {
		return nil
	}
	out := make(map[string]*fullSchema, len(table))
	for k, s := range table {
		out[k] = (*fullSchema)(s)
	}
	return out
}

// collectOperation adds the shared schemas an operation uses, directly or inside one another,
// to table. A Partial operation uses none.
func collectOperation(op *Operation, table map[string]*Schema) {
	if op.Partial {
		return
	}
	op.eachSchema(func(s **Schema) { collect(*s, table) })
}

// collect adds the shared schemas under s to table.
func collect(s *Schema, table map[string]*Schema) {
	if s == nil {
		return
	}
	if s.Shared != "" {
		if _, ok := table[s.Shared]; ok {
			return
		}
		table[s.Shared] = s
	}
	s.eachChild(func(c **Schema) { collect(*c, table) })
}

// eachSchema calls f with the place of each of the operation's top-level schemas.
func (op *Operation) eachSchema(f func(**Schema)) {
	for i := range op.Parameters {
		f(&op.Parameters[i].Schema)
	}
	if op.Body != nil {
		f(&op.Body.Schema)
		for _, e := range op.Body.Encoding {
			for i := range e.Headers {
				f(&e.Headers[i].Schema)
			}
		}
		for m := range op.Body.Media {
			f(&op.Body.Media[m].Schema)
			for _, e := range op.Body.Media[m].Encoding {
				for i := range e.Headers {
					f(&e.Headers[i].Schema)
				}
			}
		}
	}
	for i := range op.Responses {
		f(&op.Responses[i].Schema)
	}
}

// eachChild calls f with the place of each schema directly under s.
func (s *Schema) eachChild(f func(**Schema)) {
	f(&s.Items)
	f(&s.AdditionalProperties)
	for i := range s.Properties {
		f(&s.Properties[i].Schema)
	}
	for i := range s.OneOf {
		f(&s.OneOf[i])
	}
	for i := range s.AnyOf {
		f(&s.AnyOf[i])
	}
}

// resolver puts each shared schema in place of its uses.
type resolver struct {
	table map[string]*Schema
	done  map[*Schema]bool
}

func (r *resolver) operation(op *Operation) {
	op.eachSchema(func(s **Schema) { *s = r.resolve(*s) })
}

// resolve returns s with its uses of shared schemas resolved: the shared schema for a use.
func (r *resolver) resolve(s *Schema) *Schema {
	if s == nil {
		return nil
	}
	if s.Shared != "" {
		key := s.Shared
		target, ok := r.table[key]
		if !ok || target == nil {
			return &Schema{Ref: s.Ref} // a table without it: nothing more is known
		}
		target.Shared = key
		if r.done[target] {
			return target
		}
		r.done[target] = true
		target.eachChild(func(c **Schema) { *c = r.resolve(*c) })
		return target
	}
	if r.done[s] {
		return s
	}
	r.done[s] = true
	s.eachChild(func(c **Schema) { *c = r.resolve(*c) })
	return s
}
