package request

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"loupe/app/catalog"
)

// A parameter's value, as the form holds it (State.Params), is a list of texts: one for a
// scalar, one per item for an array, and for an object (or a parameter given by content) one
// text holding the object as JSON, {"R":100,"G":200}. This file writes such values as
// OpenAPI's styles say (matrix, label, form, simple, spaceDelimited, pipeDelimited,
// deepObject, each exploded or not), escaped for their location.

// IsObject reports whether a parameter's value is an object, typed as JSON in the form.
func IsObject(p *catalog.Parameter) bool {
	s := p.Schema
	return p.ContentType == "" && s != nil && (s.Type == "object" || s.Type == "" && (len(s.Properties) > 0 || s.AdditionalProperties != nil))
}

// paramValue decodes the form's values of a parameter: an Object for an object, a []string
// for an array, a string for a scalar or a content parameter.
func paramValue(p *catalog.Parameter, vals []string) (any, error) {
	switch {
	case p.ContentType != "":
		return strings.TrimSpace(vals[0]), nil
	case IsObject(p):
		v, err := decodeOrdered(vals[0])
		obj, ok := v.(Object)
		if err != nil || !ok {
			return nil, errors.New(`not an object: write it as JSON, for example {"name": "value"}`)
		}
		return obj, nil
	case IsList(p):
		return vals, nil
	}
	return vals[0], nil
}

// pairs lists an object's members, or an array's items under their index, as name and text.
func pairs(v any) [][2]string {
	var out [][2]string
	switch t := v.(type) {
	case Object:
		for _, m := range t {
			out = append(out, [2]string{m.Name, scalarText(m.Value)})
		}
	case []string:
		for _, s := range t {
			out = append(out, [2]string{"", s})
		}
	}
	return out
}

// joinValue writes an array's items, or an object's names and values, escaped with esc and
// joined by sep; kv joins an exploded object's name and value ("=").
func joinValue(v any, sep, kv string, explode bool, esc func(string) string) string {
	var parts []string
	switch t := v.(type) {
	case string:
		return esc(t)
	case []string:
		for _, s := range t {
			parts = append(parts, esc(s))
		}
	case Object:
		for _, p := range pairs(t) {
			if explode {
				parts = append(parts, esc(p[0])+kv+esc(p[1]))
			} else {
				parts = append(parts, esc(p[0]), esc(p[1]))
			}
		}
	}
	return strings.Join(parts, sep)
}

// queryPairs writes a query parameter (or a urlencoded body's field) as name=value pairs,
// each escaped.
func queryPairs(name string, v any, ser catalog.Serialization) []string {
	esc := func(s string) string { return queryEscape(s, ser.AllowReserved) }
	ename := queryEscape(name, false)
	switch t := v.(type) {
	case string:
		return []string{ename + "=" + esc(t)}
	case []string:
		if ser.Explode || len(t) == 1 && ser.Style != catalog.StyleDeepObject {
			out := make([]string, len(t))
			for i, s := range t {
				out[i] = ename + "=" + esc(s)
			}
			return out
		}
		sep := ","
		switch ser.Style {
		case catalog.StyleSpaceDelimited:
			sep = "%20"
		case catalog.StylePipeDelimited:
			sep = "|"
		}
		return []string{ename + "=" + joinValue(t, sep, "", false, esc)}
	case Object:
		switch {
		case ser.Style == catalog.StyleDeepObject:
			var out []string
			deepPairs(name, t, esc, &out)
			return out
		case ser.Explode:
			var out []string
			for _, p := range pairs(t) {
				out = append(out, queryEscape(p[0], false)+"="+esc(p[1]))
			}
			return out
		}
		sep := ","
		switch ser.Style {
		case catalog.StyleSpaceDelimited:
			sep = "%20"
		case catalog.StylePipeDelimited:
			sep = "|"
		}
		return []string{ename + "=" + joinValue(t, sep, "", false, esc)}
	}
	return nil
}

// deepPairs writes a value as deepObject does: name[key]=value, nested objects and arrays
// by further brackets (name[a][b], name[items][0]), as Rails, PHP and Stripe read them.
func deepPairs(name string, v any, esc func(string) string, out *[]string) {
	switch t := v.(type) {
	case Object:
		for _, m := range t {
			deepPairs(name+"["+m.Name+"]", m.Value, esc, out)
		}
	case []any:
		for i, e := range t {
			deepPairs(name+"["+itoa(i)+"]", e, esc, out)
		}
	default:
		*out = append(*out, bracketEscape(name)+"="+esc(scalarText(t)))
	}
}

// bracketEscape escapes a deepObject name, keeping its brackets readable.
func bracketEscape(name string) string {
	return strings.NewReplacer("%5B", "[", "%5D", "]").Replace(queryEscape(name, false))
}

// pathValue writes a path parameter's value as its style (or its template's operator)
// says: simple a,b; label .a.b; matrix ;name=a. A capturing parameter keeps its slashes.
func pathValue(name string, v any, ser catalog.Serialization, op byte) string {
	style := ser.Style
	switch op {
	case '.':
		style = catalog.StyleLabel
	case ';':
		style = catalog.StyleMatrix
	}
	captures := ser.Captures || op == '+' || op == '#'
	esc := func(s string) string { return pathEscape(s, captures) }
	switch style {
	case catalog.StyleLabel:
		sep := ","
		if ser.Explode {
			sep = "."
		}
		return "." + joinValue(v, sep, "=", ser.Explode, esc)
	case catalog.StyleMatrix:
		switch t := v.(type) {
		case []string:
			if ser.Explode {
				var b strings.Builder
				for _, s := range t {
					b.WriteString(";" + esc(name) + "=" + esc(s))
				}
				return b.String()
			}
		case Object:
			if ser.Explode {
				return ";" + joinValue(t, ";", "=", true, esc)
			}
		}
		return ";" + esc(name) + "=" + joinValue(v, ",", "=", false, esc)
	}
	out := joinValue(v, ",", "=", ser.Explode, esc)
	if op == '/' {
		out = "/" + out
	}
	return out
}

// headerValue writes a header parameter's value (style simple): a,b or k=v,k2=v2.
func headerValue(v any, ser catalog.Serialization) string {
	return joinValue(v, ",", "=", ser.Explode, func(s string) string { return s })
}

// cookiePairs writes a cookie parameter's value as name=value pairs (style form): an array
// exploded as one pair per item, else a,b.
func cookiePairs(name string, v any, ser catalog.Serialization) []string {
	switch t := v.(type) {
	case []string:
		if ser.Explode {
			out := make([]string, len(t))
			for i, s := range t {
				out[i] = name + "=" + cookieEscape(s)
			}
			return out
		}
	case Object:
		if ser.Explode {
			var out []string
			for _, p := range pairs(t) {
				out = append(out, cookieEscape(p[0])+"="+cookieEscape(p[1]))
			}
			return out
		}
	}
	return []string{name + "=" + joinValue(v, ",", "", false, cookieEscape)}
}

// contentValue writes the value of a parameter given by content: its JSON compacted.
func contentValue(text string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(text)); err != nil {
		return text
	}
	return b.String()
}
