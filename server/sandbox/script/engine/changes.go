package engine

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
)

// The documents of a user's state, by key:
//
//	props/script/<scriptId>                a script's properties (an object of strings)
//	props/user/<scriptId>/<email>          a user's properties of a script
//	props/document/<scriptId>/<parentId>   a bound script's document properties
//	cache/script/<scriptId>, cache/user/…, cache/document/…   the caches (an object of entries)
//	sheet/<spreadsheetId>                  a spreadsheet (see js/spreadsheet.js)
var validKey = regexp.MustCompile(`^(?:(?:props|cache)/(?:script/[\w-]+|user/[\w-]+/[^/\s]+|document/[\w-]+/[\w-]+)|sheet/[\w-]+)$`)

// MaxKey bounds the length of a document's key.
const MaxKey = 300

// ValidKey reports whether key names a document of a user's state.
func ValidKey(key string) bool { return len(key) <= MaxKey && validKey.MatchString(key) }

// ApplyChange returns doc (nil: none) with c applied: nil when the change deletes it. An
// object document's fields are kept in key order, so equal documents are equal bytes.
func ApplyChange(doc json.RawMessage, c Change) (json.RawMessage, error) {
	if !ValidKey(c.Key) {
		return nil, fmt.Errorf("the document key %q is not one of the sandbox's", c.Key)
	}
	if c.Clear {
		doc = nil
	}
	if c.Put != nil {
		if !json.Valid(c.Put) {
			return nil, fmt.Errorf("the document %s is not JSON", c.Key)
		}
		doc = append(json.RawMessage(nil), c.Put...)
	}
	if len(c.Del) == 0 && len(c.Set) == 0 {
		return doc, nil
	}
	fields := map[string]json.RawMessage{}
	if doc != nil {
		if err := json.Unmarshal(doc, &fields); err != nil {
			return nil, fmt.Errorf("the document %s is not an object: %w", c.Key, err)
		}
	}
	for _, k := range c.Del {
		delete(fields, k)
	}
	for k, v := range c.Set {
		if !json.Valid(v) {
			return nil, fmt.Errorf("the field %q of %s is not JSON", k, c.Key)
		}
		fields[k] = v
	}
	if len(fields) == 0 {
		return nil, nil
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		kb, _ := json.Marshal(k)
		out = append(append(append(out, kb...), ':'), fields[k]...)
	}
	return append(out, '}'), nil
}
