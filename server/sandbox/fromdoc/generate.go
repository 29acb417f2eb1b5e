package fromdoc

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Direction says which way a value travels: a response leaves out writeOnly properties, a
// request readOnly ones (unless they are required).
type Direction int

// The directions.
const (
	Response Direction = iota
	Request
)

// Choices vary what the generator picks, so that a later attempt can find a value where an
// earlier one did not validate (see attempts).
type Choices struct {
	// Examples uses the schemas' own example, examples and default values.
	Examples bool
	// Optional fills the optional properties too (up to maxProperties).
	Optional bool
	// Rotate shifts which branch of a oneOf or anyOf is taken first.
	Rotate int
}

// attempts are tried in turn until a value validates against its schema.
var attempts = []Choices{
	{Examples: true, Optional: true},
	{Optional: true},
	{},
	{Optional: true, Rotate: 1},
	{Rotate: 1},
	{Rotate: 2},
	{Examples: true, Rotate: 3},
}

// gen makes one value from a schema. It is used once.
type gen struct {
	root    any // the document, as plain values
	rng     *rand.Rand
	dir     Direction
	choices Choices
	path    []string       // the JSON path of the value being made, for errors
	active  map[string]int // $refs being made, by how many times they are open: recursion
	nodes   int            // values made so far, bounded by maxNodes
}

const (
	maxNodes = 20000 // values in one answer
	maxDepth = 24    // nesting of one answer
)

// newGen returns a generator seeded with seed.
func newGen(root any, seed uint64, dir Direction, c Choices) *gen {
	return &gen{root: root, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), dir: dir, choices: c, active: map[string]int{}}
}

// fail returns an unsatisfiable error at schema at for the value being made.
func (g *gen) fail(at, msg string) error {
	return &unsatisfiable{Schema: at, Field: g.field(), Msg: msg}
}

// field returns the JSON path of the value being made.
func (g *gen) field() string {
	var b strings.Builder
	b.WriteString("$")
	for _, p := range g.path {
		if strings.HasPrefix(p, "[") {
			b.WriteString(p)
		} else {
			b.WriteString("." + p)
		}
	}
	return b.String()
}

// name returns the property name the value being made is for ("" at the top or in a list).
func (g *gen) name() string {
	for i := len(g.path) - 1; i >= 0; i-- {
		if !strings.HasPrefix(g.path[i], "[") {
			return g.path[i]
		}
	}
	return ""
}

// value makes a value that satisfies schema s, found at at.
func (g *gen) value(s any, at string) (any, error) {
	g.nodes++
	if g.nodes > maxNodes {
		return nil, g.fail(at, fmt.Sprintf("an answer would hold more than %d values", maxNodes))
	}
	if len(g.path) > maxDepth {
		return nil, g.fail(at, fmt.Sprintf("an answer would nest deeper than %d levels", maxDepth))
	}
	ref := ""
	if m := obj(s); m != nil {
		ref, _ = m["$ref"].(string)
	}
	if ref != "" {
		g.active[ref]++
		defer func() { g.active[ref]-- }()
	}
	m, at, err := g.flatten(s, at)
	if err != nil {
		return nil, err
	}
	if c, ok := m["const"]; ok {
		return c, nil
	}
	ts, typed := types(m)
	if enum := asList(m["enum"]); len(enum) > 0 {
		return g.pickEnum(enum, ts), nil
	}
	if g.choices.Examples {
		if ex, ok := exampleOf(m); ok {
			return ex, nil
		}
	}
	if alts, kind := alternatives(m); len(alts) > 0 {
		return g.alternative(m, alts, kind, at)
	}
	if !typed || len(ts) == 0 {
		ts = []string{impliedType(m)}
	}
	t := ts[0]
	if t == "null" && len(ts) > 1 {
		t = ts[1]
	}
	if g.recursing() && slices.Contains(ts, "null") {
		return nil, nil // a tree ends where it may
	}
	switch t {
	case "object":
		return g.object(m, at)
	case "array":
		return g.array(m, at)
	case "string":
		return g.str(m, at)
	case "integer":
		return g.integer(m, at)
	case "number":
		return g.number(m, at)
	case "boolean":
		return g.rng.IntN(2) == 0, nil
	case "null":
		return nil, nil
	}
	return nil, g.fail(at, fmt.Sprintf("unknown type %q", t))
}

// recursing reports whether some $ref is being made inside itself.
func (g *gen) recursing() bool {
	for _, n := range g.active {
		if n > 1 {
			return true
		}
	}
	return false
}

// pickEnum picks one of the enum's values, a non-null one when there is one.
func (g *gen) pickEnum(enum []any, ts []string) any {
	var ok []any
	for _, e := range enum {
		if e != nil || len(enum) == 1 {
			ok = append(ok, e)
		}
	}
	return ok[g.rng.IntN(len(ok))]
}

// exampleOf returns the schema's own example: example (3.0), the first of examples (3.1), or
// its default.
func exampleOf(m map[string]any) (any, bool) {
	if ex, ok := m["example"]; ok && ex != nil {
		return ex, true
	}
	if exs := asList(m["examples"]); len(exs) > 0 && exs[0] != nil {
		return exs[0], true
	}
	if d, ok := m["default"]; ok && d != nil {
		return d, true
	}
	return nil, false
}

// alternatives returns the schema's oneOf or anyOf branches.
func alternatives(m map[string]any) ([]any, string) {
	if l := asList(m["oneOf"]); len(l) > 0 {
		return l, "oneOf"
	}
	if l := asList(m["anyOf"]); len(l) > 0 {
		return l, "anyOf"
	}
	return nil, ""
}

// alternative makes a value for one branch of a oneOf or anyOf: the one the discriminator
// maps, else the first that can be made (shifted by Choices.Rotate). The schema's other
// keywords (its properties beside the oneOf) hold too.
func (g *gen) alternative(m map[string]any, alts []any, kind, at string) (any, error) {
	rest := make(map[string]any, len(m))
	for k, v := range m {
		if k != kind {
			rest[k] = v
		}
	}
	order := make([]int, len(alts))
	for i := range alts {
		order[i] = (i + g.choices.Rotate) % len(alts)
	}
	var firstErr error
	for _, i := range order {
		branch := map[string]any{"allOf": []any{rest, alts[i]}}
		v, err := g.value(branch, at)
		if err == nil {
			return g.discriminate(m, alts[i], v), nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

// discriminate sets the discriminator property of an object made from branch to the name
// that maps to it (discriminator.mapping, else the branch's schema name).
func (g *gen) discriminate(m map[string]any, branch, v any) any {
	d := obj(m["discriminator"])
	o := obj(v)
	prop := str(d, "propertyName")
	if d == nil || o == nil || prop == "" {
		return v
	}
	ref := str(obj(branch), "$ref")
	if ref == "" {
		return v
	}
	name := ref[strings.LastIndex(ref, "/")+1:]
	for _, k := range keysOf(obj(d["mapping"])) {
		if target, _ := obj(d["mapping"])[k].(string); target == ref || target == name {
			name = k
			break
		}
	}
	if cur, ok := o[prop].(string); !ok || cur != name {
		o[prop] = name
	}
	return o
}

// impliedType guesses the type of a schema that names none from its keywords.
func impliedType(m map[string]any) string {
	switch {
	case m["properties"] != nil || m["additionalProperties"] != nil || m["required"] != nil || m[allowedKey] != nil:
		return "object"
	case m["items"] != nil || m["prefixItems"] != nil || m["minItems"] != nil:
		return "array"
	case m["minimum"] != nil || m["maximum"] != nil || m["multipleOf"] != nil:
		return "number"
	}
	return "string"
}

// index returns the path step of a list item.
func index(i int) string { return "[" + strconv.Itoa(i) + "]" }
