package chat

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
)

// object is a JSON object that keeps its keys in document order, so that
// arguments list properties in the order the schema declares them.
type object struct {
	keys []string
	vals map[string]any
}

// get returns the value of key, or nil.
func (o *object) get(key string) any {
	if o == nil {
		return nil
	}
	return o.vals[key]
}

// set adds or replaces key.
func (o *object) set(key string, v any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// newObject returns an empty object.
func newObject() *object { return &object{vals: map[string]any{}} }

// decodeOrdered decodes JSON into nil, bool, json.Number, string, []any and
// *object values.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, fmt.Errorf("decode schema: %w", err)
	}
	return v, nil
}

// decodeValue reads one value from dec.
func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newObject()
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := k.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(key, v)
			}
			_, err := dec.Token() // '}'
			return o, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token() // ']'
			return list, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// encodeValue writes a value made of the types decodeOrdered returns (and
// int, float64) as compact JSON.
func encodeValue(buf *bytes.Buffer, v any) {
	switch t := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(t))
	case json.Number:
		buf.WriteString(t.String())
	case int:
		buf.WriteString(strconv.Itoa(t))
	case float64:
		buf.WriteString(strconv.FormatFloat(t, 'f', -1, 64))
	case string:
		b, _ := json.Marshal(t) // a string always marshals
		buf.Write(b)
	case []any:
		buf.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeValue(buf, e)
		}
		buf.WriteByte(']')
	case *object:
		buf.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeValue(buf, k)
			buf.WriteByte(':')
			encodeValue(buf, t.vals[k])
		}
		buf.WriteByte('}')
	}
}

// argGen generates arguments for a tool's parameter schema from the prompt.
//
// It follows type, properties, required (optional properties are filled only
// when the schema lists no required ones, or to reach minProperties), items,
// minItems/maxItems, enum and const (first value), minimum/maximum
// (inclusive and exclusive), multipleOf for integers, minLength/maxLength,
// format (date, date-time, time, email, uri, uuid), $ref into the same
// schema, allOf (merged), anyOf/oneOf (first alternative that is not null).
// Strings come from the prompt: a quoted phrase, capitalised names for
// location-like properties, the prompt itself for query-like ones. pattern
// is not followed.
type argGen struct {
	root   any
	prompt promptFacts
}

// maxSchemaDepth bounds recursion through nested or recursive schemas.
const maxSchemaDepth = 12

// toolArguments returns JSON arguments for the parameter schema params
// (which may be empty: a function without parameters gets {}).
func toolArguments(params json.RawMessage, prompt promptFacts) (string, error) {
	params = bytes.TrimSpace(params)
	if len(params) == 0 || bytes.Equal(params, []byte("null")) {
		return "{}", nil
	}
	root, err := decodeOrdered(params)
	if err != nil {
		return "", err
	}
	g := argGen{root: root, prompt: prompt}
	var buf bytes.Buffer
	encodeValue(&buf, g.value(root, "", 0))
	return buf.String(), nil
}

// value generates a value for schema s of a property called name.
func (g *argGen) value(s any, name string, depth int) any {
	sch, ok := s.(*object)
	if !ok || depth > maxSchemaDepth {
		if depth == 0 {
			return newObject()
		}
		return g.prompt.phrase(name)
	}
	if ref, ok := sch.get("$ref").(string); ok {
		if target := g.resolve(ref); target != nil {
			return g.value(target, name, depth+1)
		}
	}
	if c, ok := sch.vals["const"]; ok {
		return c
	}
	if enum, ok := sch.get("enum").([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	if all, ok := sch.get("allOf").([]any); ok && len(all) > 0 {
		return g.value(g.mergeAll(sch, all), name, depth+1)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts, ok := sch.get(key).([]any); ok && len(alts) > 0 {
			for _, alt := range alts {
				if schemaType(g.deref(alt)) != "null" {
					return g.value(alt, name, depth+1)
				}
			}
			return nil
		}
	}
	switch schemaType(sch) {
	case "object":
		return g.object(sch, depth)
	case "array":
		return g.array(sch, name, depth)
	case "integer":
		return g.number(sch, name, true)
	case "number":
		return g.number(sch, name, false)
	case "boolean":
		return true
	case "null":
		return nil
	default:
		return g.str(sch, name)
	}
}

// schemaType returns the schema's type, the first non-null one when it is a
// list, or the type its keywords imply.
func schemaType(s any) string {
	sch, ok := s.(*object)
	if !ok {
		return ""
	}
	switch t := sch.get("type").(type) {
	case string:
		return t
	case []any:
		for _, e := range t {
			if name, ok := e.(string); ok && name != "null" {
				return name
			}
		}
		if len(t) > 0 {
			return "null"
		}
	}
	switch {
	case sch.get("properties") != nil || sch.get("required") != nil:
		return "object"
	case sch.get("items") != nil || sch.get("prefixItems") != nil:
		return "array"
	}
	return ""
}

// resolve follows a local reference such as #/$defs/item.
func (g *argGen) resolve(ref string) any {
	path, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	cur := g.root
	for part := range strings.SplitSeq(strings.TrimPrefix(path, "/"), "/") {
		if part == "" {
			continue
		}
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		o, ok := cur.(*object)
		if !ok {
			return nil
		}
		cur = o.get(part)
	}
	return cur
}

// deref follows s's $ref, if any.
func (g *argGen) deref(s any) any {
	if sch, ok := s.(*object); ok {
		if ref, ok := sch.get("$ref").(string); ok {
			if target := g.resolve(ref); target != nil {
				return target
			}
		}
	}
	return s
}

// mergeAll merges the subschemas of allOf (and the schema's own keywords)
// into one: properties and required are united, other keywords are taken from
// the first schema that has them.
func (g *argGen) mergeAll(sch *object, all []any) *object {
	merged := newObject()
	props := newObject()
	var required []any
	for _, s := range append([]any{sch}, all...) {
		o, ok := g.deref(s).(*object)
		if !ok {
			continue
		}
		for _, k := range o.keys {
			switch k {
			case "allOf", "$ref":
			case "properties":
				if p, ok := o.vals[k].(*object); ok {
					for _, pk := range p.keys {
						props.set(pk, p.vals[pk])
					}
				}
			case "required":
				if r, ok := o.vals[k].([]any); ok {
					required = append(required, r...)
				}
			default:
				if _, ok := merged.vals[k]; !ok {
					merged.set(k, o.vals[k])
				}
			}
		}
	}
	if len(props.keys) > 0 {
		merged.set("properties", props)
	}
	if required != nil {
		merged.set("required", required)
	}
	return merged
}

// object generates an object for sch.
func (g *argGen) object(sch *object, depth int) *object {
	out := newObject()
	props, _ := sch.get("properties").(*object)
	required, hasRequired := sch.get("required").([]any)
	for _, r := range required {
		if key, ok := r.(string); ok {
			out.set(key, g.value(props.get(key), key, depth+1))
		}
	}
	minProps := intKeyword(sch, "minProperties", 0)
	if props != nil {
		for _, key := range props.keys {
			if _, done := out.vals[key]; done {
				continue
			}
			if hasRequired && len(out.keys) >= minProps {
				break
			}
			out.set(key, g.value(props.vals[key], key, depth+1))
		}
	}
	// Keep the schema's order: required properties were added first.
	if props != nil {
		ordered := newObject()
		for _, key := range props.keys {
			if v, ok := out.vals[key]; ok {
				ordered.set(key, v)
			}
		}
		for _, key := range out.keys {
			if _, ok := ordered.vals[key]; !ok {
				ordered.set(key, out.vals[key])
			}
		}
		out = ordered
	}
	return out
}

// array generates an array for sch.
func (g *argGen) array(sch *object, name string, depth int) []any {
	prefix, _ := sch.get("prefixItems").([]any)
	n := max(intKeyword(sch, "minItems", 1), len(prefix), 1)
	if maxItems := intKeyword(sch, "maxItems", -1); maxItems >= 0 && n > maxItems {
		n = maxItems
	}
	items := sch.get("items")
	unique, _ := sch.get("uniqueItems").(bool)
	out := make([]any, 0, n)
	for i := range n {
		itemSchema := items
		if i < len(prefix) {
			itemSchema = prefix[i]
		}
		v := g.value(itemSchema, singular(name), depth+1)
		if unique && i > 0 {
			v = vary(v, i)
		}
		out = append(out, v)
	}
	return out
}

// vary makes the i-th item of a uniqueItems array differ from the others.
func vary(v any, i int) any {
	switch t := v.(type) {
	case string:
		return fmt.Sprintf("%s %d", t, i+1)
	case int:
		return t + i
	case float64:
		return t + float64(i)
	}
	return v
}

// number generates a number or integer inside the schema's bounds, preferring
// one the prompt mentions.
func (g *argGen) number(sch *object, name string, integer bool) any {
	lo, hi := math.Inf(-1), math.Inf(1)
	if v, ok := numKeyword(sch, "minimum"); ok {
		lo = v
	}
	if v, ok := numKeyword(sch, "maximum"); ok {
		hi = v
	}
	step := 1.0
	if !integer {
		step = 0.5
	}
	if v, ok := numKeyword(sch, "exclusiveMinimum"); ok {
		lo = math.Max(lo, v+step)
	} else if b, _ := sch.get("exclusiveMinimum").(bool); b && !math.IsInf(lo, -1) {
		lo += step
	}
	if v, ok := numKeyword(sch, "exclusiveMaximum"); ok {
		hi = math.Min(hi, v-step)
	} else if b, _ := sch.get("exclusiveMaximum").(bool); b && !math.IsInf(hi, 1) {
		hi -= step
	}
	if integer {
		lo, hi = math.Ceil(lo), math.Floor(hi)
	}
	pick := math.NaN()
	for _, n := range g.prompt.numbers {
		if (!integer || n == math.Trunc(n)) && n >= lo && n <= hi {
			pick = n
			break
		}
	}
	if math.IsNaN(pick) {
		pick = 1
		if name != "" && strings.Contains(strings.ToLower(name), "limit") {
			pick = 10
		}
		pick = math.Min(math.Max(pick, lo), hi)
	}
	if m, ok := numKeyword(sch, "multipleOf"); ok && m > 0 {
		pick = math.Ceil(pick/m) * m
		if pick > hi {
			pick -= m
		}
	}
	if integer {
		return int(pick)
	}
	return pick
}

// numKeyword reads a numeric keyword.
func numKeyword(sch *object, key string) (float64, bool) {
	n, ok := sch.get(key).(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// intKeyword reads an integer keyword, or def.
func intKeyword(sch *object, key string, def int) int {
	if f, ok := numKeyword(sch, key); ok {
		return int(f)
	}
	return def
}

// uuidLike is a fixed, valid UUID for format "uuid".
const uuidLike = "3f2b8c1e-5a7d-4e9f-8b6a-1c2d3e4f5a6b"

// str generates a string for sch.
func (g *argGen) str(sch *object, name string) string {
	var s string
	switch format, _ := sch.get("format").(string); format {
	case "date":
		s = "2026-01-15"
	case "date-time":
		s = "2026-01-15T09:30:00Z"
	case "time":
		s = "09:30:00Z"
	case "email":
		s = "user@example.com"
	case "uri", "url", "iri":
		s = "https://example.com/"
	case "uuid":
		s = uuidLike
	default:
		s = g.prompt.phrase(name)
	}
	minLen := intKeyword(sch, "minLength", 0)
	for utf8.RuneCountInString(s) < minLen {
		s += " " + s
	}
	if maxLen := intKeyword(sch, "maxLength", -1); maxLen >= 0 && utf8.RuneCountInString(s) > maxLen {
		s = string([]rune(s)[:maxLen])
	}
	return s
}

// promptFacts is what argument generation takes from the last user message.
type promptFacts struct {
	text    string    // the message, trimmed
	quoted  []string  // "quoted phrases"
	names   []string  // Capitalised words that do not start a sentence
	words   []string  // content words (see contentWords)
	numbers []float64 // numbers in order
}

var (
	quotedRe = regexp.MustCompile(`["“']([^"”']{2,80})["”']`)
	numberRe = regexp.MustCompile(`-?\d+(?:\.\d+)?`)
	nameRe   = regexp.MustCompile(`\p{Lu}\p{Ll}+(?:\s\p{Lu}\p{Ll}+)*`)
)

// factsOf extracts promptFacts from text.
func factsOf(text string) promptFacts {
	f := promptFacts{text: strings.TrimSpace(text), words: contentWords(text)}
	for _, m := range quotedRe.FindAllStringSubmatch(text, -1) {
		f.quoted = append(f.quoted, m[1])
	}
	// Capitalised words that start a sentence are names only when no other
	// word is: in "Forecast for Rome", Rome is the name.
	var initial []string
	for _, loc := range nameRe.FindAllStringIndex(text, -1) {
		name := text[loc[0]:loc[1]]
		if isStopword(strings.ToLower(name)) {
			continue
		}
		before := strings.TrimRight(text[:loc[0]], " \t\n\"'“(")
		if before == "" || strings.ContainsAny(before[len(before)-1:], ".!?:") {
			first, rest, more := strings.Cut(name, " ")
			initial = append(initial, first)
			if !more {
				continue
			}
			name = rest // "Register Ada": Ada is a name
		}
		f.names = append(f.names, name)
	}
	f.names = append(f.names, initial...)
	for _, m := range numberRe.FindAllString(text, -1) {
		if v, err := strconv.ParseFloat(m, 64); err == nil {
			f.numbers = append(f.numbers, v)
		}
	}
	return f
}

// phrase returns a string for a property called name.
func (f promptFacts) phrase(name string) string {
	lower := strings.ToLower(name)
	has := func(parts ...string) bool {
		for _, p := range parts {
			if strings.Contains(lower, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("email"):
		return "user@example.com"
	case has("url", "link", "website"):
		return "https://example.com/"
	case has("date"):
		return "2026-01-15"
	case has("city", "location", "place", "country", "region", "address", "town", "destination"):
		if len(f.names) > 0 {
			return f.names[0]
		}
	case lower == "q" || has("query", "search", "prompt", "text", "topic", "keyword", "message", "content", "question", "input", "term"):
		if len(f.quoted) > 0 {
			return f.quoted[0]
		}
		if f.text != "" {
			return truncateRunes(f.text, 200)
		}
	}
	if len(f.quoted) > 0 {
		return f.quoted[0]
	}
	if len(f.names) > 0 && has("name", "title", "who", "person", "city") {
		return f.names[0]
	}
	if len(f.words) > 0 {
		return strings.Join(f.words[:min(3, len(f.words))], " ")
	}
	return "example"
}

// truncateRunes cuts s to at most n runes.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// singular guesses the singular of an English plural property name.
func singular(name string) string {
	switch {
	case strings.HasSuffix(name, "ies"):
		return strings.TrimSuffix(name, "ies") + "y"
	case strings.HasSuffix(name, "s") && !strings.HasSuffix(name, "ss"):
		return strings.TrimSuffix(name, "s")
	}
	return name
}
