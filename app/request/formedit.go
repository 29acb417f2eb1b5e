package request

import (
	"encoding/json"
	"strings"

	"loupe/app/catalog"
)

// This file edits a form body (urlencoded or multipart) field by field, as the operation
// page's form editor does: each edit rewrites State.Body, the JSON object of the fields'
// values (see form.go), and State.Files, so that what is sent, linked and remembered is
// always what the fields show.

// FormField is one field of a form body as the form editor shows it.
type FormField struct {
	// Name is the field's name, the property's.
	Name string
	// Schema is the field's schema; for a list, the list's (see Item). Nil when the body's
	// schema says nothing of the field.
	Schema *catalog.Schema
	// Required is set when the body's schema requires the field.
	Required bool
	// List is set for an array: one value per item, each sent as its own part or pair.
	List bool
	// File is set when the field (each item of a list) takes a file.
	File bool
	// JSON is set when a value is edited as JSON text: an object, or a value whose encoding
	// sends it as JSON.
	JSON bool
	// Sent is set when the body holds the field.
	Sent bool
	// Values holds the text of each value (a list's items; a file's name); nil when the
	// field is not sent.
	Values []string
	// Named is set, per value, when it is a file named in the body (FileRef) rather than
	// given as text.
	Named []bool
}

// Item returns the schema of one value: a list's items', else the field's.
func (f FormField) Item() *catalog.Schema {
	if f.List && f.Schema != nil {
		return f.Schema.Items
	}
	return f.Schema
}

// FormFields returns the fields of a form body: the schema's properties in its order (those
// the client may write), then any other the body holds. ok is false when the body is not a
// JSON object of fields, which the form editor cannot show field by field.
func FormFields(b *catalog.RequestBody, body string) (fields []FormField, ok bool) {
	form, ok := formObject(body)
	if !ok {
		return nil, false
	}
	known := map[string]bool{}
	if b.Schema != nil && (b.Schema.Type == "" || b.Schema.Type == "object") {
		for _, p := range b.Schema.Properties {
			if p.Schema != nil && p.Schema.ReadOnly {
				continue
			}
			known[p.Name] = true
			fields = append(fields, formField(b, p.Name, p.Schema, p.Required, form))
		}
	}
	for _, m := range form {
		if !known[m.Name] {
			known[m.Name] = true
			fields = append(fields, formField(b, m.Name, fieldSchema(b.Schema, m.Name), false, form))
		}
	}
	return fields, true
}

// formField describes one field and its values in form.
func formField(b *catalog.RequestBody, name string, s *catalog.Schema, required bool, form Object) FormField {
	f := FormField{Name: name, Schema: s, Required: required}
	f.List = s != nil && s.Type == "array"
	f.File = IsFileField(s)
	item := f.Item()
	enc := encodingOf(b, name)
	f.JSON = !f.File && (item != nil && (item.Type == "object" || item.Type == "array") ||
		enc != nil && isJSONType(enc.ContentType))
	v, sent := form.Get(name)
	if !sent {
		return f
	}
	f.Sent = true
	items := []any{v}
	if list, ok := v.([]any); ok && f.List {
		items = list
	}
	for _, it := range items {
		fname, named := fileRefOf(it)
		text := fname
		if !named {
			text = valueText(it, f.JSON)
		}
		f.Values = append(f.Values, text)
		f.Named = append(f.Named, named)
	}
	return f
}

// valueText is how the editor shows one value: a scalar as a form sends it, an object or
// array as indented JSON when it is edited as JSON.
func valueText(v any, asJSON bool) string {
	switch v.(type) {
	case Object, []any:
		if asJSON {
			out, err := json.MarshalIndent(v, "", "  ")
			if err == nil {
				return string(out)
			}
		}
	case string:
		if asJSON {
			return v.(string) // JSON text the user is still typing
		}
	}
	return scalarText(v)
}

// formObject decodes a form body's text; a blank body is an empty form.
func formObject(body string) (Object, bool) {
	if strings.TrimSpace(body) == "" {
		return Object{}, true
	}
	v, err := decodeOrdered(body)
	form, ok := v.(Object)
	return form, err == nil && ok
}

// typedValue turns the text of a field's value into the JSON value the body holds, as the
// value's schema says: a number when it reads as one, true or false, parsed JSON for a value
// edited as JSON. Text that does not read as its type is kept as text, so that the check says
// what is wrong with it and the field keeps what was typed.
func typedValue(s *catalog.Schema, asJSON bool, text string) any {
	t := ""
	if s != nil {
		t = s.Type
	}
	switch {
	case asJSON:
		if v, err := decodeOrdered(text); err == nil {
			return v
		}
	case t == "integer" || t == "number":
		var n json.Number
		if json.Unmarshal([]byte(strings.TrimSpace(text)), &n) == nil {
			return n
		}
	case t == "boolean":
		switch text {
		case "true":
			return true
		case "false":
			return false
		}
	}
	return text
}

// SetFormValue sets the index-th value of a form field from its text (index 0 of a field that
// is not a list). Blank text stops sending a field that is not a list.
func (s *State) SetFormValue(b *catalog.RequestBody, name string, index int, text string) {
	form, _ := formObject(s.Body)
	f := formField(b, name, fieldSchema(b.Schema, name), false, form)
	if !f.List {
		if text == "" {
			s.ClearFormField(b, name)
			return
		}
		delete(s.Files, FilePointer(name, -1))
		s.setMember(b, form, name, typedValue(f.Item(), f.JSON, text))
		return
	}
	items := listOf(form, name)
	for len(items) <= index {
		items = append(items, "")
	}
	items[index] = typedValue(f.Item(), f.JSON, text)
	delete(s.Files, FilePointer(name, index))
	s.setMember(b, form, name, items)
}

// AddFormItem adds an empty value at the end of a list field.
func (s *State) AddFormItem(b *catalog.RequestBody, name string) {
	form, _ := formObject(s.Body)
	s.setMember(b, form, name, append(listOf(form, name), ""))
}

// RemoveFormItem removes the index-th value of a list field, and its file; the files of the
// values after it move down with them.
func (s *State) RemoveFormItem(b *catalog.RequestBody, name string, index int) {
	form, _ := formObject(s.Body)
	items := listOf(form, name)
	if index < 0 || index >= len(items) {
		return
	}
	items = append(items[:index:index], items[index+1:]...)
	for i := index; i <= len(items); i++ {
		if f, ok := s.Files[FilePointer(name, i+1)]; ok {
			s.Files[FilePointer(name, i)] = f
		} else {
			delete(s.Files, FilePointer(name, i))
		}
	}
	s.setMember(b, form, name, items)
}

// SetFormFiles gives a file field the chosen files: the first for a single file, all of them,
// in order, for a list of files. No file stops sending the field.
func (s *State) SetFormFiles(b *catalog.RequestBody, name string, files []File) {
	s.ClearFormField(b, name)
	if len(files) == 0 {
		return
	}
	form, _ := formObject(s.Body)
	if s.Files == nil {
		s.Files = map[string]File{}
	}
	sch := fieldSchema(b.Schema, name)
	if sch == nil || sch.Type != "array" {
		s.Files[FilePointer(name, -1)] = files[0]
		s.setMember(b, form, name, fileRefValue(files[0].Name))
		return
	}
	items := make([]any, len(files))
	for i, f := range files {
		s.Files[FilePointer(name, i)] = f
		items[i] = fileRefValue(f.Name)
	}
	s.setMember(b, form, name, items)
}

// ClearFormField stops sending a field, and drops its files.
func (s *State) ClearFormField(b *catalog.RequestBody, name string) {
	prefix := FilePointer(name, -1)
	for k := range s.Files {
		if k == prefix || strings.HasPrefix(k, prefix+"/") {
			delete(s.Files, k)
		}
	}
	form, _ := formObject(s.Body)
	kept := form[:0:0]
	for _, m := range form {
		if m.Name != name {
			kept = append(kept, m)
		}
	}
	s.writeForm(kept)
}

// SetBodyFile makes a binary body the chosen file.
func (s *State) SetBodyFile(f File) {
	s.Body = FileRef(f.Name)
	s.Files = map[string]File{"": f}
}

// listOf returns a copy of a list field's items (a single value as one item).
func listOf(form Object, name string) []any {
	v, ok := form.Get(name)
	switch t := v.(type) {
	case []any:
		return append([]any(nil), t...)
	case nil:
		if !ok {
			return nil
		}
	}
	return []any{v}
}

// fileRefValue is FileRef as an ordered value.
func fileRefValue(name string) Object { return Object{{Name: fileRefKey, Value: name}} }

// setMember sets a field's value, a new field placed in the schema's order among the others.
func (s *State) setMember(b *catalog.RequestBody, form Object, name string, v any) {
	for i := range form {
		if form[i].Name == name {
			form[i].Value = v
			s.writeForm(form)
			return
		}
	}
	rank := map[string]int{}
	if b.Schema != nil {
		for i, p := range b.Schema.Properties {
			rank[p.Name] = i + 1
		}
	}
	at := len(form)
	if r := rank[name]; r > 0 {
		for i, m := range form {
			if rank[m.Name] > r {
				at = i
				break
			}
		}
	}
	form = append(form[:at:at], append(Object{{Name: name, Value: v}}, form[at:]...)...)
	s.writeForm(form)
}

// writeForm writes the form object as the form indents it (so a link carries it compactly);
// a form without fields is no body.
func (s *State) writeForm(form Object) {
	if len(form) == 0 {
		s.Body = ""
		return
	}
	out, err := json.MarshalIndent(form, "", "  ")
	if err != nil {
		return
	}
	s.Body = string(out)
}
