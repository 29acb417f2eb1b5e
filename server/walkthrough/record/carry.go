package record

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// seen holds the values earlier answers gave, each with where it first came from, and the
// values the requests sent: a value the user typed and an answer echoed (a title, a file
// name) stays as typed.
type seen struct {
	values map[string]origin   // by the value's text
	sent   map[string]struct{} // the distinctive values of the requests so far
}

type origin struct {
	step    int    // index of the step whose answer held it
	pointer string // JSON pointer in that answer
}

// distinctive reports whether a value is worth carrying: one that a later request is unlikely
// to send by chance. Strings of six characters or more, or of four or more with a digit (ids,
// tokens, names); whole numbers of three digits or more. Small numbers, true and false, and
// short words (a status, "v1") are sent as written.
func distinctive(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		digit := strings.IndexFunc(t, unicode.IsDigit) >= 0
		return t, len(t) >= 6 || (len(t) >= 4 && digit)
	case float64:
		if t == float64(int64(t)) && (t >= 100 || t <= -100) {
			return strconv.FormatInt(int64(t), 10), true
		}
	}
	return "", false
}

// add records the distinctive values of an answer, the first answer that held a value kept.
func (s *seen) add(step int, v any, ptr string) {
	if s.values == nil {
		s.values = map[string]origin{}
	}
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			s.add(step, t[k], ptr+"/"+escape(k))
		}
	case []any:
		for i, e := range t {
			s.add(step, e, ptr+"/"+strconv.Itoa(i))
		}
	default:
		if text, ok := distinctive(v); ok {
			_, dup := s.values[text]
			_, typed := s.sent[text]
			if !dup && !typed {
				s.values[text] = origin{step, ptr}
			}
		}
	}
}

// carry rewrites a value to send: a value an earlier answer gave becomes the expression of
// that step's output (defined on it now); a long id inside a longer string becomes an
// embedded {$…} expression.
func (s *seen) carry(v any, steps []*Step) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = s.carry(e, steps)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = s.carry(e, steps)
		}
		return out
	case []string:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = s.carry(e, steps)
		}
		return out
	}
	text, ok := distinctive(v)
	if !ok {
		return v
	}
	if s.sent == nil {
		s.sent = map[string]struct{}{}
	}
	if o, found := s.values[text]; found {
		return "$steps." + steps[o.step].StepID + ".outputs." + output(steps[o.step], o.pointer)
	}
	s.sent[text] = struct{}{}
	str, isString := v.(string)
	if !isString || strings.Contains(str, "{$") {
		return v
	}
	// A long id inside a longer string (a name in a path, a URL): embed its expression.
	for val, o := range s.values {
		if len(val) >= 8 && strings.Contains(str, val) {
			expr := "{$steps." + steps[o.step].StepID + ".outputs." + output(steps[o.step], o.pointer) + "}"
			str = strings.ReplaceAll(str, val, expr)
		}
	}
	return str
}

// output returns the name of the step's output for a pointer of its answer, defining it when
// it is new: the pointer's last member ("scriptId"), made unique.
func output(st *Step, ptr string) string {
	if st.Outputs == nil {
		st.Outputs = map[string]string{}
	}
	value := "$response.body#" + ptr
	for name, v := range st.Outputs {
		if v == value {
			return name
		}
	}
	toks := strings.Split(ptr, "/")
	base := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.' {
			return r
		}
		return -1
	}, strings.ReplaceAll(strings.ReplaceAll(toks[len(toks)-1], "~1", "/"), "~0", "~"))
	if base == "" || unicode.IsDigit(rune(base[0])) {
		base = "value" + base
	}
	name := base
	for i := 2; st.Outputs[name] != ""; i++ {
		name = base + strconv.Itoa(i)
	}
	st.Outputs[name] = value
	return name
}
