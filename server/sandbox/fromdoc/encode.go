package fromdoc

import (
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"
)

// isXMLType reports whether a media type carries XML (application/xml, text/xml, */*+xml).
func isXMLType(mt string) bool {
	mt = strings.ToLower(mt)
	return strings.HasSuffix(strings.SplitN(mt, ";", 2)[0], "xml")
}

// encodeXML writes a value as XML: an object's properties as elements, a list's items as
// repeated <item> elements, under a <root> element.
func encodeXML(v any) []byte {
	var b strings.Builder
	b.WriteString(xml.Header)
	writeXML(&b, "root", v)
	return []byte(b.String())
}

func writeXML(b *strings.Builder, name string, v any) {
	name = xmlName(name)
	switch t := v.(type) {
	case map[string]any:
		b.WriteString("<" + name + ">")
		for _, k := range keysOf(t) {
			writeXML(b, k, t[k])
		}
		b.WriteString("</" + name + ">")
	case []any:
		b.WriteString("<" + name + ">")
		for _, item := range t {
			writeXML(b, "item", item)
		}
		b.WriteString("</" + name + ">")
	case nil:
		b.WriteString("<" + name + "/>")
	default:
		b.WriteString("<" + name + ">")
		_ = xml.EscapeText(b, []byte(fmt.Sprint(t)))
		b.WriteString("</" + name + ">")
	}
}

// xmlName makes a property name a valid XML element name.
func xmlName(s string) string {
	var b strings.Builder
	for i, r := range s {
		ok := r == '_' || r == '-' || r == '.' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		if ok {
			b.WriteRune(r)
		} else {
			b.WriteRune('_')
		}
	}
	if b.Len() == 0 {
		return "value"
	}
	return b.String()
}

// encodeForm writes an object as application/x-www-form-urlencoded: lists repeat their name,
// nested objects are written as JSON.
func encodeForm(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return url.QueryEscape(fmt.Sprint(v))
	}
	q := url.Values{}
	for _, k := range keysOf(m) {
		switch t := m[k].(type) {
		case []any:
			for _, item := range t {
				q.Add(k, scalarText(item))
			}
		default:
			q.Set(k, scalarText(t))
		}
	}
	return q.Encode()
}

// scalarText writes a value as text: a scalar as itself, anything else as JSON.
func scalarText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case nil:
		return ""
	case map[string]any, []any:
		b, _ := marshal(t)
		return string(b)
	case float64:
		return fmt.Sprint(t)
	}
	return fmt.Sprint(v)
}
