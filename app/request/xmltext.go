package request

import (
	"encoding/xml"
	"strings"

	"loupe/app/catalog"
)

// XMLText writes a value (decoded JSON, objects as Object) as the XML body its schema
// describes: the root element named by the schema's xml name, else its component name, else
// "root"; a property as a child element, or an attribute where its xml says so; an array's
// items as repeated elements named by the items' xml name (or the property's), inside a
// wrapper element when wrapped.
func XMLText(s *catalog.Schema, v any) string {
	var b strings.Builder
	writeXML(&b, elementName(s, "root"), s, v, 0)
	return b.String()
}

func elementName(s *catalog.Schema, def string) string {
	switch {
	case s != nil && s.XML != nil && s.XML.Name != "":
		name := s.XML.Name
		if s.XML.Prefix != "" {
			name = s.XML.Prefix + ":" + name
		}
		return name
	case s != nil && s.Ref != "" && def == "root":
		return s.Ref
	}
	return def
}

func writeXML(b *strings.Builder, name string, s *catalog.Schema, v any, depth int) {
	indent := strings.Repeat("  ", depth)
	if list, ok := v.([]any); ok {
		var items *catalog.Schema
		if s != nil {
			items = s.Items
		}
		wrapped := s != nil && s.XML != nil && s.XML.Wrapped
		itemName := elementName(items, name)
		if wrapped {
			b.WriteString(indent + "<" + name + ">\n")
			depth++
		}
		for _, item := range list {
			writeXML(b, itemName, items, item, depth)
		}
		if wrapped {
			b.WriteString(indent + "</" + name + ">\n")
		}
		return
	}
	b.WriteString(indent + "<" + name)
	if s != nil && s.XML != nil && s.XML.Namespace != "" {
		attr := "xmlns"
		if s.XML.Prefix != "" {
			attr += ":" + s.XML.Prefix
		}
		b.WriteString(" " + attr + `="` + escapeXML(s.XML.Namespace) + `"`)
	}
	obj, isObj := v.(Object)
	if !isObj {
		b.WriteString(">" + escapeXML(scalarText(v)) + "</" + name + ">\n")
		return
	}
	var children []Member
	for _, m := range obj {
		ps := fieldSchema(s, m.Name)
		if ps != nil && ps.XML != nil && ps.XML.Attribute {
			b.WriteString(" " + elementName(ps, m.Name) + `="` + escapeXML(scalarText(m.Value)) + `"`)
			continue
		}
		children = append(children, m)
	}
	if len(children) == 0 {
		b.WriteString("/>\n")
		return
	}
	b.WriteString(">\n")
	for _, m := range children {
		ps := fieldSchema(s, m.Name)
		writeXML(b, elementName(ps, m.Name), ps, m.Value, depth+1)
	}
	b.WriteString(indent + "</" + name + ">\n")
}

func escapeXML(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
