package request

import (
	"encoding/json"
	"strings"

	"loupe/app/catalog"
)

// File is a file the user chose for a body: a multipart part's file, or the whole body of a
// binary content type. A link (the permalink) names a file but never carries it: the body
// text holds FileRef(name), and its bytes are in State.Files only while the page holds them.
type File struct {
	// Name is the file's name, sent as the part's filename.
	Name string
	// Type is the file's media type as the browser gives it; empty means unknown.
	Type string
	// Data is the file's bytes; nil when the file is named (by a link) but not held.
	Data []byte
}

// fileRefKey is the member of the object that stands for a chosen file in a body's text.
const fileRefKey = "$file"

// FileRef is the text that stands for a chosen file in a form body's JSON (a field's value)
// or as a binary body: {"$file":"photo.png"}. Its bytes are State.Files[FilePointer(...)].
func FileRef(name string) string {
	b, _ := json.Marshal(map[string]string{fileRefKey: name})
	return string(b)
}

// FileRefName returns the file a body text or a field's value names, if it is a FileRef.
func FileRefName(text string) (string, bool) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "{") {
		return "", false
	}
	v, err := decodeOrdered(text)
	if err != nil {
		return "", false
	}
	return fileRefOf(v)
}

// fileRefOf returns the file an ordered value names, if it is {"$file": name}.
func fileRefOf(v any) (string, bool) {
	o, ok := v.(Object)
	if !ok || len(o) != 1 || o[0].Name != fileRefKey {
		return "", false
	}
	name, ok := o[0].Value.(string)
	return name, ok
}

// FilePointer is the key of a form field's file in State.Files: the JSON pointer of the value
// in the body ("/avatar", "/photos/1"); "" is a binary body's file. index is the item's index
// in an array field, or -1.
func FilePointer(field string, index int) string {
	p := "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(field)
	if index >= 0 {
		p += "/" + itoa(index)
	}
	return p
}

// fileFor returns the bytes of the file a form field (or the body, pointer "") names, or an
// error message when the form holds only its name.
func fileFor(st State, pointer, name string) (File, string) {
	f, ok := st.Files[pointer]
	if !ok || f.Data == nil || f.Name != name {
		return File{Name: name}, "choose the file " + name + " again: a link names a file but does not carry it"
	}
	return f, ""
}

// IsFileField reports whether a form field takes files: its schema is a file, or an array of
// files.
func IsFileField(s *catalog.Schema) bool {
	return s.IsFile() || s != nil && s.Type == "array" && s.Items.IsFile()
}

// fieldSchema returns the schema of a form body's field: the property's, else the
// additional properties'; nil when the body's schema says nothing of it.
func fieldSchema(s *catalog.Schema, name string) *catalog.Schema {
	if s == nil {
		return nil
	}
	for _, p := range s.Properties {
		if p.Name == name {
			return p.Schema
		}
	}
	return s.AdditionalProperties
}

// partContentType is the Content-Type a multipart part is sent with: the encoding's (its first
// when it lists several; a wildcard stands for the file's own), else the file's, else the
// default of what the value is.
func partContentType(enc *catalog.Encoding, s *catalog.Schema, file *File, object bool) string {
	if enc != nil && enc.ContentType != "" {
		ct, _, _ := strings.Cut(enc.ContentType, ",")
		if ct = strings.TrimSpace(ct); !strings.Contains(ct, "*") {
			return ct
		}
	}
	switch {
	case file != nil && file.Type != "":
		return file.Type
	case file != nil && s != nil && s.ContentMediaType != "" && !strings.Contains(s.ContentMediaType, "*"):
		return s.ContentMediaType
	case file != nil:
		return "application/octet-stream"
	case object:
		return "application/json"
	}
	return ""
}
