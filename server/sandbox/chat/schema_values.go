// Values of a tool's parameter schema: numbers, strings and the properties an object is filled with.

package chat

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

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
	return pick // integers are whole float64 values, written without a fraction
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
		s = g.prompt.matching(promptDate, "2026-01-15")
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			s = "2026-01-15" // 2026-02-30 has the shape of a date but is none
		}
	case "date-time":
		s = "2026-01-15T09:30:00Z"
	case "time":
		s = "09:30:00Z"
	case "email":
		s = g.prompt.matching(promptEmail, "user@example.com")
	case "uri", "url", "iri":
		s = "https://example.com/"
	case "uuid":
		s = uuidLike
	case "ipv4":
		s = "192.0.2.1"
	case "ipv6":
		s = "2001:db8::1"
	case "hostname", "idn-hostname":
		s = "example.com"
	case "duration":
		s = "PT1H"
	case "uri-reference", "iri-reference", "json-pointer":
		s = "/items/1"
	case "regex":
		s = ".*"
	default:
		s = g.prompt.phrase(name)
	}
	minLen := min(intKeyword(sch, "minLength", 0), maxStringRunes)
	if pattern, ok := sch.get("pattern").(string); ok {
		candidates := append([]string{s}, g.prompt.patternCandidates()...)
		if g.variant > 0 {
			candidates = nil // items of a uniqueItems array: built, each different
		}
		if m, ok := patternString(pattern, candidates, minLen, intKeyword(sch, "maxLength", -1), g.variant); ok {
			return m
		}
	}
	for utf8.RuneCountInString(s) < minLen {
		s += " " + s
	}
	if maxLen := intKeyword(sch, "maxLength", -1); maxLen >= 0 && utf8.RuneCountInString(s) > maxLen {
		s = string([]rune(s)[:maxLen])
	}
	return s
}

// fillProperties adds to out what the rest of sch requires: the properties
// dependentRequired names for those present, then, up to minProperties,
// properties with names made for patternProperties or, when additional
// properties are allowed, plain ones.
func (g *argGen) fillProperties(sch *object, out *object, minProps, depth int) {
	props, _ := sch.get("properties").(*object)
	if deps, ok := sch.get("dependentRequired").(*object); ok {
		for _, key := range deps.keys {
			if _, present := out.vals[key]; !present {
				continue
			}
			list, _ := deps.vals[key].([]any)
			for _, d := range list {
				if name, ok := d.(string); ok {
					if _, done := out.vals[name]; !done {
						out.set(name, g.value(props.get(name), name, depth+1))
					}
				}
			}
		}
	}
	if pp, ok := sch.get("patternProperties").(*object); ok {
		for i := 0; len(out.keys) < minProps && i < maxArrayItems; i++ {
			pattern := pp.keys[i%len(pp.keys)]
			name, ok := patternString(pattern, nil, 0, -1, i)
			if !ok {
				break
			}
			if _, taken := out.vals[name]; taken {
				name += itoaPlain(i + 1)
			}
			out.set(name, g.value(pp.vals[pattern], name, depth+1))
		}
	}
	extra := sch.get("additionalProperties")
	if b, ok := extra.(bool); ok && !b {
		return
	}
	for i := 1; len(out.keys) < minProps && i <= maxArrayItems; i++ {
		name := "property" + itoaPlain(i)
		if _, taken := out.vals[name]; !taken {
			out.set(name, g.value(extra, name, depth+1))
		}
	}
}

// itoaPlain formats a small non-negative integer.
func itoaPlain(n int) string { return fmt.Sprint(n) }
