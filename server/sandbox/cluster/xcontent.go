package cluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// writeJSON writes v as the cluster writes every answer, its errors included, honouring the
// parameters every OpenSearch REST handler takes: filter_path (filterPath), format (json or
// yaml; any other name falls back to JSON as OpenSearch's does, but the binary smile and cbor
// are refused: the sandbox does not write them) and pretty (OpenSearch's own indentation:
// "key" : value, arrays one item a line, empty ones as [ ] and { }, a newline at the end).
func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	q := r.URL.Query()
	format := strings.ToLower(q.Get("format"))
	if format == "smile" || format == "cbor" {
		v, status, format = newError(http.StatusNotAcceptable, "illegal_argument_exception",
			"format ["+format+"] is binary, and Loupe's cluster sandbox answers json and yaml only: ask for one of those"), http.StatusNotAcceptable, "json"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, `{"error":{"root_cause":[],"type":"exception","reason":%q},"status":500}`, "encoding the answer: "+err.Error())
	}
	out := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if fp, isYAML := q.Get("filter_path"), format == "yaml"; fp != "" || isYAML || pretty(q) {
		if n, err := parseNode(out); err == nil {
			if fp != "" {
				n = filterPath(n, fp)
			}
			var b strings.Builder
			switch {
			case isYAML:
				b.WriteString("---\n")
				writeYAML(&b, n, 0, false)
			case pretty(q):
				writePretty(&b, n, 0)
				b.WriteString("\n")
			default:
				writePretty(&b, n, -1)
			}
			out = []byte(b.String())
		}
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	if format == "yaml" {
		w.Header().Set("Content-Type", "application/yaml")
	}
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

// pretty reports whether ?pretty asks for indented JSON ("" and "true" do).
func pretty(q url.Values) bool {
	v, ok := q["pretty"]
	return ok && (v[0] == "" || v[0] == "true")
}

// quoted writes s as a JSON string, without HTML escaping.
func quoted(b *strings.Builder, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// scalar writes a value that is neither an object nor an array as JSON.
func scalar(b *strings.Builder, n *jsonNode) {
	switch n.kind {
	case 's':
		quoted(b, n.text)
	case 'z':
		b.WriteString("null")
	default:
		b.WriteString(n.text)
	}
}

// writePretty writes n as JSON: compact when depth is negative, else as OpenSearch's pretty
// printer does at that depth.
func writePretty(b *strings.Builder, n *jsonNode, depth int) {
	if n.kind != 'o' && n.kind != 'a' {
		scalar(b, n)
		return
	}
	open, end := "{", "}"
	if n.kind == 'a' {
		open, end = "[", "]"
	}
	b.WriteString(open)
	if len(n.vals) == 0 {
		if depth >= 0 {
			b.WriteString(" ")
		}
		b.WriteString(end)
		return
	}
	indent := func(d int) {
		if depth >= 0 {
			b.WriteString("\n" + strings.Repeat("  ", d))
		}
	}
	for i, v := range n.vals {
		if i > 0 {
			b.WriteString(",")
		}
		indent(depth + 1)
		if n.kind == 'o' {
			quoted(b, n.keys[i])
			if depth >= 0 {
				b.WriteString(" : ")
			} else {
				b.WriteString(":")
			}
		}
		child := -1
		if depth >= 0 {
			child = depth + 1
		}
		writePretty(b, v, child)
	}
	indent(depth)
	b.WriteString(end)
}

// writeYAML writes n as OpenSearch's YAML (Jackson's): strings double-quoted, a sequence's
// items at their key's indentation, empty collections as [] and {}. inItem is true for the
// first line of a sequence item, which starts after its "- ".
func writeYAML(b *strings.Builder, n *jsonNode, depth int, inItem bool) {
	pad := strings.Repeat("  ", depth)
	switch {
	case n.kind == 'o' && len(n.keys) > 0:
		for i, k := range n.keys {
			if i > 0 || !inItem {
				b.WriteString(pad)
			}
			yamlKey(b, k)
			writeYAMLValue(b, n.vals[i], depth)
		}
	case n.kind == 'a' && len(n.vals) > 0:
		for i, v := range n.vals {
			if i > 0 || !inItem {
				b.WriteString(pad)
			}
			b.WriteString("- ")
			if (v.kind == 'o' || v.kind == 'a') && len(v.vals) > 0 {
				writeYAML(b, v, depth+1, true)
				continue
			}
			yamlScalar(b, v)
			b.WriteString("\n")
		}
	default:
		yamlScalar(b, n)
		b.WriteString("\n")
	}
}

// writeYAMLValue writes the value of a mapping's key at depth, after its "key:".
func writeYAMLValue(b *strings.Builder, v *jsonNode, depth int) {
	switch {
	case v.kind == 'o' && len(v.keys) > 0:
		b.WriteString(":\n")
		writeYAML(b, v, depth+1, false)
	case v.kind == 'a' && len(v.vals) > 0:
		b.WriteString(":\n")
		writeYAML(b, v, depth, false)
	default:
		b.WriteString(": ")
		yamlScalar(b, v)
		b.WriteString("\n")
	}
}

// yamlKey writes a mapping key: plain when it is a simple name, else double-quoted.
func yamlKey(b *strings.Builder, k string) {
	simple := k != ""
	for _, c := range k {
		if !(c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			simple = false
		}
	}
	if simple && strings.IndexByte("-.0123456789", k[0]) < 0 {
		b.WriteString(k)
		return
	}
	quoted(b, k)
}

// yamlScalar writes a scalar, or an empty collection, as YAML.
func yamlScalar(b *strings.Builder, n *jsonNode) {
	switch n.kind {
	case 'o':
		b.WriteString("{}")
	case 'a':
		b.WriteString("[]")
	default:
		scalar(b, n)
	}
}
