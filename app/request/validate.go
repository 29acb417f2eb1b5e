package request

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"loupe/app/catalog"
)

// FieldError is what is wrong with one field of the form.
type FieldError struct {
	// Key is the parameter key (Key) or BodyKey.
	Key string
	// Path locates the problem inside the body, "messages[0].role"; empty for the body as a whole
	// and for parameters.
	Path string
	// Message says what is wrong, "out of range: must be at most 500".
	Message string
}

// Error implements error: "messages[0].role: must be one of user, assistant, system".
func (e FieldError) Error() string {
	if e.Path != "" {
		return e.Path + ": " + e.Message
	}
	return e.Message
}

// CheckParam returns what is wrong with a parameter's values (empty values already removed), or "".
func CheckParam(p *catalog.Parameter, vals []string) string {
	if len(vals) == 0 {
		if p.Required {
			return "missing: this parameter is required"
		}
		return ""
	}
	if !IsList(p) && len(vals) > 1 {
		return "takes a single value"
	}
	if IsObject(p) || p.ContentType != "" {
		if p.ContentType != "" && !isJSONType(p.ContentType) {
			return ""
		}
		v, err := decodeOrdered(vals[0])
		if err != nil {
			return "not JSON: " + err.Error()
		}
		if errs := check(p.Schema, plain(v), "", 0); len(errs) > 0 {
			return errs[0].Error()
		}
		return ""
	}
	if p.Schema != nil && p.Schema.Type == "array" {
		if p.Schema.MinItems != nil && int64(len(vals)) < *p.Schema.MinItems {
			return fmt.Sprintf("needs at least %d values", *p.Schema.MinItems)
		}
		if p.Schema.MaxItems != nil && int64(len(vals)) > *p.Schema.MaxItems {
			return fmt.Sprintf("takes at most %d values", *p.Schema.MaxItems)
		}
	}
	item := ItemSchema(p)
	for i, v := range vals {
		if msg := CheckText(item, v); msg != "" {
			if len(vals) > 1 {
				return fmt.Sprintf("value %d (%s): %s", i+1, v, msg)
			}
			return msg
		}
	}
	return ""
}

// CheckText checks a value typed as text against a scalar schema and returns what is wrong, or "".
func CheckText(s *catalog.Schema, v string) string {
	if s == nil {
		return ""
	}
	var value any = v
	switch s.Type {
	case "integer":
		n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || n != math.Trunc(n) || strings.ContainsAny(v, "eE") {
			return "not an integer"
		}
		value = json.Number(strings.TrimSpace(v))
	case "number":
		if _, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil {
			return "not a number"
		}
		value = json.Number(strings.TrimSpace(v))
	case "boolean":
		if v != "true" && v != "false" {
			return "must be true or false"
		}
		value = v == "true"
	}
	if errs := check(s, value, "", 0); len(errs) > 0 {
		return errs[0].Message
	}
	return ""
}

// CheckBody parses a JSON body and checks it against the body's schema. A body whose content
// type is not JSON is not checked.
func CheckBody(b *catalog.RequestBody, text string) []FieldError {
	if b.ContentType != "" && !strings.Contains(b.ContentType, "json") {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []FieldError{{Key: BodyKey, Message: syntaxMessage(text, err)}}
	}
	if dec.More() {
		return []FieldError{{Key: BodyKey, Message: "not JSON: unexpected text after the value"}}
	}
	errs := check(b.Schema, v, "", 0)
	for i := range errs {
		errs[i].Key = BodyKey
	}
	return errs
}

// syntaxMessage says where a JSON syntax error is, as line and column.
func syntaxMessage(text string, err error) string {
	var se *json.SyntaxError
	offset := int64(-1)
	if errors.As(err, &se) {
		offset = se.Offset
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if msg == "unexpected EOF" || msg == "EOF" {
		msg = "unexpected end of JSON"
		offset = int64(len(text))
	}
	if offset < 0 {
		return "not JSON: " + msg
	}
	before := text[:min(int(offset), len(text))]
	line := strings.Count(before, "\n") + 1
	col := utf8.RuneCountInString(before[strings.LastIndex(before, "\n")+1:])
	return fmt.Sprintf("not JSON: %s (line %d, column %d)", msg, line, col)
}

// maxErrors bounds the errors reported for one body.
const maxErrors = 20

// check validates a decoded JSON value (numbers as json.Number) against s.
func check(s *catalog.Schema, v any, path string, depth int) []FieldError {
	if s == nil || s.Recursive || depth > 64 {
		return nil
	}
	at := func(msg string) []FieldError { return []FieldError{{Path: path, Message: msg}} }
	if v == nil {
		if s.Nullable || s.Type == "" || s.Type == "null" {
			return nil
		}
		return at("must be " + article(s.Type) + ", not null")
	}
	if len(s.OneOf) > 0 || len(s.AnyOf) > 0 {
		if errs := checkAlternatives(s, v, path, depth); errs != nil {
			return errs
		}
	}
	if s.Type != "" && s.Type != typeOf(v) && !(s.Type == "number" && typeOf(v) == "integer") {
		if s.Type == "integer" && typeOf(v) == "number" {
			return at("not an integer")
		}
		return at("must be " + article(s.Type) + ", not " + article(typeOf(v)))
	}
	if len(s.Const) > 0 && !sameJSON(s.Const, v) {
		return at("must be " + Text(s.Const))
	}
	if len(s.Enum) > 0 {
		ok := false
		names := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			names[i] = Text(e.Value)
			if sameJSON(e.Value, v) {
				ok = true
			}
		}
		if !ok {
			return at("must be one of " + strings.Join(names, ", "))
		}
	}
	switch v := v.(type) {
	case json.Number:
		f, _ := v.Float64()
		return checkNumber(s, f, at)
	case string:
		n := int64(utf8.RuneCountInString(v))
		if s.MinLength != nil && n < *s.MinLength {
			if *s.MinLength == 1 {
				return at("must not be empty")
			}
			return at(fmt.Sprintf("too short: must be at least %d characters", *s.MinLength))
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			return at(fmt.Sprintf("too long: must be at most %d characters", *s.MaxLength))
		}
		if msg := checkFormat(s.Format, v); msg != "" {
			return at(msg)
		}
		if s.Pattern != "" {
			if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(v) {
				return at(notInForm(s))
			}
		}
	case []any:
		if s.MinItems != nil && int64(len(v)) < *s.MinItems {
			return at(fmt.Sprintf("needs at least %d items", *s.MinItems))
		}
		if s.MaxItems != nil && int64(len(v)) > *s.MaxItems {
			return at(fmt.Sprintf("takes at most %d items", *s.MaxItems))
		}
		var errs []FieldError
		for i, item := range v {
			errs = append(errs, check(s.Items, item, fmt.Sprintf("%s[%d]", path, i), depth+1)...)
			if len(errs) >= maxErrors {
				break
			}
		}
		return errs
	case map[string]any:
		var errs []FieldError
		known := map[string]bool{}
		for _, p := range s.Properties {
			known[p.Name] = true
			child := join(path, p.Name)
			pv, ok := v[p.Name]
			if !ok {
				if p.Required && (p.Schema == nil || !p.Schema.ReadOnly) {
					errs = append(errs, FieldError{Path: child, Message: "missing: this field is required"})
				}
				continue
			}
			errs = append(errs, check(p.Schema, pv, child, depth+1)...)
		}
		if s.AdditionalProperties != nil {
			for _, k := range sortedKeys(v) {
				if !known[k] {
					errs = append(errs, check(s.AdditionalProperties, v[k], join(path, k), depth+1)...)
				}
			}
		}
		if len(errs) > maxErrors {
			errs = errs[:maxErrors]
		}
		return errs
	}
	return nil
}

// checkAlternatives checks oneOf/anyOf: nil when an alternative matches, otherwise the errors of
// the closest alternative, or a summary when none has the value's type.
func checkAlternatives(s *catalog.Schema, v any, path string, depth int) []FieldError {
	alts := append(append([]*catalog.Schema(nil), s.OneOf...), s.AnyOf...)
	var best []FieldError
	var types []string
	for _, alt := range alts {
		errs := check(alt, v, path, depth+1)
		if len(errs) == 0 {
			return nil
		}
		name := alt.Type
		if alt.Ref != "" {
			name = alt.Ref
		}
		if name != "" {
			types = append(types, name)
		}
		typeMatches := alt.Type == "" || alt.Type == typeOf(v) || (alt.Type == "number" && typeOf(v) == "integer")
		if typeMatches && (best == nil || len(errs) < len(best)) {
			best = errs
		}
	}
	if best != nil {
		return best
	}
	return []FieldError{{Path: path, Message: "must be one of: " + strings.Join(types, ", ")}}
}

func checkNumber(s *catalog.Schema, f float64, at func(string) []FieldError) []FieldError {
	switch {
	case s.Minimum != nil && f < *s.Minimum:
		return at("out of range: must be at least " + num(*s.Minimum))
	case s.Maximum != nil && f > *s.Maximum:
		return at("out of range: must be at most " + num(*s.Maximum))
	case s.ExclusiveMinimum != nil && f <= *s.ExclusiveMinimum:
		return at("out of range: must be greater than " + num(*s.ExclusiveMinimum))
	case s.ExclusiveMaximum != nil && f >= *s.ExclusiveMaximum:
		return at("out of range: must be less than " + num(*s.ExclusiveMaximum))
	}
	return nil
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func typeOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if f, err := v.Float64(); err == nil && f == math.Trunc(f) && !strings.ContainsAny(string(v), ".eE") {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func article(t string) string {
	switch t {
	case "integer", "object", "array":
		return "an " + t
	case "null":
		return "null"
	case "":
		return "a value"
	}
	return "a " + t
}

// sameJSON compares an enum or const value with a decoded value.
func sameJSON(raw json.RawMessage, v any) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var want any
	if dec.Decode(&want) != nil {
		return false
	}
	if a, ok := want.(json.Number); ok {
		if b, ok := v.(json.Number); ok {
			fa, _ := a.Float64()
			fb, _ := b.Float64()
			return fa == fb
		}
		return false
	}
	wb, _ := json.Marshal(want)
	vb, _ := json.Marshal(v)
	return bytes.Equal(wb, vb)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
