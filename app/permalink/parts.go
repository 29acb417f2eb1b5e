package permalink

import (
	"sort"
	"strings"

	"loupe/app/catalog"
	"loupe/app/request"
)

// A multipart part's documented header (the body's encoding object, request.PartHeaders) is
// written under its State.Params key, part:<field>:<header>, after the parameters: only the
// headers the body sent as its current type documents, never one named like a credential.

// writePartHeaders writes the part headers st holds a value for, in the body's field order,
// each header in the document's order.
func writePartHeaders(b *strings.Builder, op *catalog.Operation, st request.State) {
	body := request.BodyOf(op, st)
	if body == nil || body.Schema == nil {
		return
	}
	fields := make([]string, 0, len(body.Schema.Properties))
	seen := map[string]bool{}
	for _, p := range body.Schema.Properties {
		fields = append(fields, p.Name)
		seen[p.Name] = true
	}
	var others []string // encodings of fields the schema does not name, by name
	for name := range body.Encoding {
		if !seen[name] {
			others = append(others, name)
		}
	}
	sort.Strings(others)
	fields = append(fields, others...)
	for _, field := range fields {
		for _, h := range request.PartHeaders(body, field) {
			if IsCredential(h.Name) {
				continue
			}
			key := request.PartHeaderKey(field, h.Name)
			for _, v := range st.Params[key] {
				if v == "" {
					continue
				}
				b.WriteString("&" + escape(key) + "=" + escape(v))
			}
		}
	}
}

// partHeaderOf reads a fragment name as a part header: isPart when it is written as one,
// known when one of the body's types documents that header for that field (the body-type
// pair may come after it), key its State.Params key.
func partHeaderOf(op *catalog.Operation, name string) (key string, isPart, known bool) {
	field, header, ok := request.ParsePartHeaderKey(name)
	if !ok {
		return "", false, false
	}
	if op.Body == nil {
		return name, true, false
	}
	for _, ct := range op.Body.Types() {
		for _, h := range request.PartHeaders(op.Body.As(ct), field) {
			if h.Name == header {
				return name, true, true
			}
		}
	}
	return name, true, false
}
