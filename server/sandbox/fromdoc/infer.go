package fromdoc

import (
	"fmt"
	"strings"
	"sync"
)

// Infer decides the collections of a document from its paths and methods: a path whose last
// segment is a parameter (/pets/{petId}) is an item of the collection above it (/pets), whose
// POST creates, GET lists; the item's GET reads, PUT replaces, PATCH updates, DELETE removes.
// A collection with a POST and a GET but no item path is kept too (create and list). The
// document's x-loupe-sandbox extension, then hints (the configuration), override what is
// inferred (hints.go). It fails when a hint names a path or operation the document lacks.
func Infer(d *Document, hints *Hints) (*Model, error) {
	m := &Model{actions: map[*operation]*action{}}
	doc, err := documentHints(d)
	if err != nil {
		return nil, err
	}
	all := doc.with(hints)
	m.Hints = appliedHints(doc, hints)
	byPath := map[string]map[string]*operation{}
	var order []string
	for _, o := range d.ops {
		if byPath[o.Path] == nil {
			byPath[o.Path] = map[string]*operation{}
			order = append(order, o.Path)
		}
		byPath[o.Path][o.Method] = o
	}
	taken := map[string]bool{}
	for _, h := range all.Resources {
		res, err := d.hintedResource(h, byPath)
		if err != nil {
			return nil, err
		}
		res.Source = resourceSource(hints, h.Collection)
		taken[res.Collection] = true
		m.add(d, res, byPath)
	}
	for _, path := range order {
		param, parent, ok := itemPath(path)
		if !ok || taken[parent] {
			continue
		}
		item, coll := byPath[path], byPath[parent]
		if !hasAny(item, "GET", "PUT", "PATCH", "DELETE") || (!hasAny(coll, "GET", "POST") && item["PUT"] == nil) {
			continue
		}
		taken[parent] = true
		m.add(d, &Resource{Name: lastLiteral(parent), Collection: parent, Item: path, Param: param, Source: "inferred"}, byPath)
	}
	for _, path := range order { // collections with no item path: create and list
		coll := byPath[path]
		if taken[path] || coll["POST"] == nil || coll["GET"] == nil || strings.HasSuffix(path, "}") {
			continue
		}
		taken[path] = true
		m.add(d, &Resource{Name: lastLiteral(path), Collection: path, Source: "inferred"}, byPath)
	}
	if err := m.applyOperationHints(d, all); err != nil {
		return nil, err
	}
	for _, o := range d.ops {
		if m.actions[o] == nil {
			m.Stateless = append(m.Stateless, o.ID)
		}
	}
	if m.Resources == nil {
		m.Resources = []*Resource{}
	}
	if m.Stateless == nil {
		m.Stateless = []string{}
	}
	return m, nil
}

// itemPath splits an item path (/pets/{petId}) into its parameter and its collection's path.
func itemPath(path string) (param, parent string, ok bool) {
	i := strings.LastIndex(path, "/")
	if i <= 0 {
		return "", "", false
	}
	last := path[i+1:]
	if len(last) < 3 || last[0] != '{' || last[len(last)-1] != '}' || strings.ContainsAny(last[1:len(last)-1], "{}") {
		return "", "", false
	}
	return last[1 : len(last)-1], path[:i], true
}

// lastLiteral is a path's last segment that is not a parameter: the collection's name.
func lastLiteral(path string) string {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		if segs[i] != "" && !strings.HasPrefix(segs[i], "{") {
			return segs[i]
		}
	}
	return "items"
}

func hasAny(ops map[string]*operation, methods ...string) bool {
	for _, m := range methods {
		if ops[m] != nil {
			return true
		}
	}
	return false
}

// add fills a resource's actions, item schema, id, pagination and seed, and keeps it when its
// items have a JSON schema (else it notes why not).
func (m *Model) add(d *Document, res *Resource, byPath map[string]map[string]*operation) {
	res.Operations = map[string]string{}
	coll, item := byPath[res.Collection], byPath[res.Item]
	acts := map[string]*operation{}
	set := func(kind string, o *operation) {
		if o != nil {
			acts[kind] = o
		}
	}
	set("list", coll["GET"])
	set("create", coll["POST"])
	if res.Item != "" {
		set("read", item["GET"])
		set("replace", item["PUT"])
		set("update", item["PATCH"])
		set("delete", item["DELETE"])
	}
	if !d.findItemSchema(res, acts) {
		m.Notes = append(m.Notes, fmt.Sprintf("%s: no JSON schema says what an item is, so its operations are answered from the document alone", res.Collection))
		return
	}
	res.Wrapper = map[string]string{}
	for kind, o := range acts {
		path, ok := d.locate(res, o, kind == "list")
		if !ok {
			res.Notes = append(res.Notes, fmt.Sprintf("%s (%s) answers no %s in a form the sandbox recognizes, so it is answered from the document alone", o.ID, kind, map[bool]string{true: "list of items", false: "item"}[kind == "list"]))
			continue
		}
		if path != "" {
			res.Wrapper[kind] = path
		}
		res.Operations[kind] = o.ID
		m.actions[o] = &action{kind: kind, res: res, op: o}
	}
	if len(res.Wrapper) == 0 {
		res.Wrapper = nil
	}
	d.findID(res)
	if lo := acts["list"]; lo != nil && m.actions[lo] != nil {
		res.Pagination, res.Filters = d.paging(res, lo)
	}
	// The seed is made on the collection's first use (a large document has hundreds of
	// collections, most never called).
	res.seedOnce = sync.OnceFunc(func() { d.seed(res, acts) })
	res.shared = sync.OnceValue(func() *scope { return seeded(res) })
	m.Resources = append(m.Resources, res)
}

// successJSON returns the operation's success code and its JSON media type, when it answers
// JSON.
func successJSON(o *operation) (string, string, bool) {
	code := o.successCode()
	for _, mt := range mediaTypes(o.response(code)) {
		if isJSON(mt) {
			return code, mt, true
		}
	}
	return code, "", false
}
