package reports

import (
	"cmp"
	"strconv"
	"strings"
)

// Operators of the filters parameter, two-character ones first so that "<=" is not read as "<".
var operators = []string{"==", "<>", "<=", ">=", "<", ">"}

// condition is one name<op>value term of filters.
type condition struct {
	name, op, value string
	typ             string // the parameter's catalogue type
}

// parseFilters reads filters: comma-separated name<op>value terms. A term on a parameter the
// catalogue does not know is ignored; a repeated parameter keeps the last term; a term without
// an operator, or whose value does not fit the parameter's type, is a 400.
func parseFilters(raw string, c *catalog) ([]condition, *apiError) {
	if raw == "" {
		return nil, nil
	}
	byName := map[string]int{}
	var out []condition
	for _, term := range strings.Split(raw, ",") {
		name, op, value, ok := splitTerm(term)
		if !ok {
			return nil, invalidParam("filters", "Invalid filters term '%s': want name<op>value with the operator ==, <>, <, <=, > or >=, terms separated by commas.", term)
		}
		def, known := c.params[name]
		if !known {
			continue // not a calendar event parameter: ignored, like the real API
		}
		switch def.Type {
		case typeInteger:
			if _, err := strconv.ParseInt(value, 10, 64); err != nil {
				return nil, invalidParam("filters", "Invalid filters term '%s': %s is an integer parameter.", term, name)
			}
		case typeBoolean:
			if _, err := strconv.ParseBool(value); err != nil || (op != "==" && op != "<>") {
				return nil, invalidParam("filters", "Invalid filters term '%s': %s is a boolean parameter; compare it with == or <> to true or false.", term, name)
			}
		}
		cond := condition{name: name, op: op, value: value, typ: def.Type}
		if i, dup := byName[name]; dup {
			out[i] = cond
			continue
		}
		byName[name] = len(out)
		out = append(out, cond)
	}
	return out, nil
}

// splitTerm splits name<op>value at the first operator.
func splitTerm(term string) (name, op, value string, ok bool) {
	at := -1
	for _, o := range operators {
		if i := strings.Index(term, o); i > 0 && (at < 0 || i < at || (i == at && len(o) > len(op))) {
			at, op = i, o
		}
	}
	if at <= 0 {
		return "", "", "", false
	}
	return strings.TrimSpace(term[:at]), op, term[at+len(op):], true
}

// matches reports whether the record passes every condition. A condition on a parameter the
// record's event does not carry is ignored, as documented.
func (r *record) matches(conds []condition) bool {
	for _, c := range conds {
		p, ok := r.param(c.name)
		if !ok {
			continue
		}
		if !c.holds(p) {
			return false
		}
	}
	return true
}

// holds compares the parameter's value with the condition's: numerically for integers,
// as booleans for booleans, byte-wise for strings.
func (c condition) holds(p parameter) bool {
	var d int
	switch c.typ {
	case typeInteger:
		a, _ := strconv.ParseInt(p.IntValue, 10, 64)
		b, _ := strconv.ParseInt(c.value, 10, 64)
		d = cmp.Compare(a, b)
	case typeBoolean:
		b, _ := strconv.ParseBool(c.value)
		if p.BoolValue == nil || *p.BoolValue != b {
			d = 1
		}
	default:
		d = strings.Compare(p.Value, c.value)
	}
	switch c.op {
	case "==":
		return d == 0
	case "<>":
		return d != 0
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	case ">":
		return d > 0
	default: // ">="
		return d >= 0
	}
}
