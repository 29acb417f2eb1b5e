package snippet

import (
	"encoding/json"
	"strings"

	"loupe/app/catalog"
	"loupe/app/request"
)

// param is one named argument of a client call: a string, or a list when repeated.
type param struct {
	name   string
	values []string
	list   bool
	typ    string // the JSON type of its schema (of its items, for a list); "" when unknown
}

// callParams returns the path and query parameters of req as a client library takes them, in
// the operation's order: a query parameter sent more than once is a list.
func callParams(op *catalog.Operation, req *request.Request) []param {
	var out []param
	if op == nil {
		return out
	}
	path := pathParams(op.Path, req.Path)
	types := map[string]string{}
	for _, p := range op.Parameters {
		types[p.In+":"+p.Name] = valueType(p.Schema)
		if p.In == "path" {
			if v, ok := path[p.Name]; ok {
				out = append(out, param{name: p.Name, values: []string{v}, typ: types["path:"+p.Name]})
			}
		}
	}
	index := map[string]int{}
	for _, q := range req.Query {
		if i, ok := index[q.Name]; ok {
			out[i].values = append(out[i].values, q.Value)
			out[i].list = true
			continue
		}
		index[q.Name] = len(out)
		out = append(out, param{name: q.Name, values: []string{q.Value}, typ: types["query:"+q.Name]})
	}
	return out
}

// valueType is the JSON type of a parameter's values: its schema's, or its items' for an array.
func valueType(s *catalog.Schema) string {
	if s == nil {
		return ""
	}
	if s.Type == "array" && s.Items != nil {
		return s.Items.Type
	}
	return s.Type
}

// literal writes p's value as a JavaScript (python false) or Python literal: a number or a
// boolean as one when its schema says so and the value is one, else a string.
func (p param) literal(python bool) string {
	if !p.list {
		return p.scalar(p.values[0], python)
	}
	items := make([]string, len(p.values))
	for i, v := range p.values {
		items[i] = p.scalar(v, python)
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// scalar writes one value of p.
func (p param) scalar(v string, python bool) string {
	switch p.typ {
	case "integer", "number":
		var n json.Number
		if json.Unmarshal([]byte(v), &n) == nil && strings.TrimSpace(v) == v {
			return v
		}
	case "boolean":
		if v == "true" || v == "false" {
			if python {
				return strings.ToUpper(v[:1]) + v[1:]
			}
			return v
		}
	}
	return str(v)
}
