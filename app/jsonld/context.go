package jsonld

import (
	"fmt"
	"net/url"
	"strings"
)

// termDef is one term definition of an active context.
type termDef struct {
	iri       string // expanded IRI; "" when the term is explicitly unmapped (null)
	coerce    string // "@id", "@vocab" or a datatype IRI, from the definition's @type
	container string
}

// activeContext is the context in force at one point of the document.
type activeContext struct {
	vocab    string
	base     string
	language string
	terms    map[string]termDef
}

func (c *activeContext) clone() *activeContext {
	n := *c
	n.terms = make(map[string]termDef, len(c.terms))
	for k, v := range c.terms {
		n.terms[k] = v
	}
	return &n
}

// contextBuilder processes one local context object: terms may refer to
// prefixes defined later in the same object, so definitions are created on
// demand, as the JSON-LD context processing algorithm does.
type contextBuilder struct {
	ctx     *activeContext
	local   jv
	defined map[string]bool // term -> done (true) or in progress (false)
	defs    []TermDef
}

// process applies a local context (object, array, null or string) to active.
// Remote contexts (strings) cannot be fetched here; they are reported in warnings.
func process(active *activeContext, local jv, warnings *[]string) (*activeContext, []TermDef, error) {
	switch local.kind {
	case kNull:
		return &activeContext{base: active.base, terms: map[string]termDef{}}, nil, nil
	case kString:
		*warnings = append(*warnings, fmt.Sprintf("remote context %q was not loaded", local.str))
		return active, nil, nil
	case kArray:
		var all []TermDef
		for _, l := range local.arr {
			var defs []TermDef
			var err error
			if active, defs, err = process(active, l, warnings); err != nil {
				return nil, nil, err
			}
			all = append(all, defs...)
		}
		return active, all, nil
	case kObject:
		b := &contextBuilder{ctx: active.clone(), local: local, defined: map[string]bool{}}
		if err := b.run(); err != nil {
			return nil, nil, err
		}
		return b.ctx, b.defs, nil
	}
	return nil, nil, fmt.Errorf("invalid @context: a %s", kindName(local.kind))
}

func (b *contextBuilder) run() error {
	if v, ok := b.local.get("@base"); ok && v.kind == kString {
		b.ctx.base = resolve(b.ctx.base, v.str)
	}
	if v, ok := b.local.get("@vocab"); ok {
		switch v.kind {
		case kNull:
			b.ctx.vocab = ""
		case kString:
			iri, err := b.expand(v.str, true, true)
			if err != nil {
				return fmt.Errorf("expanding @vocab %q: %w", v.str, err)
			}
			b.ctx.vocab = iri
		default:
			return fmt.Errorf("invalid @vocab: a %s", kindName(v.kind))
		}
		b.defs = append(b.defs, TermDef{Term: "@vocab", Value: v.str, IRI: b.ctx.vocab})
	}
	if v, ok := b.local.get("@language"); ok && v.kind == kString {
		b.ctx.language = strings.ToLower(v.str)
	}
	for _, m := range b.local.obj {
		if strings.HasPrefix(m.key, "@") {
			continue
		}
		if err := b.define(m.key); err != nil {
			return err
		}
	}
	return nil
}

// define creates the term definition of term from the local context.
func (b *contextBuilder) define(term string) error {
	if done, seen := b.defined[term]; seen {
		if !done {
			return fmt.Errorf("cyclic IRI mapping for term %q", term)
		}
		return nil
	}
	b.defined[term] = false
	v, _ := b.local.get(term)
	def := termDef{}
	written := ""
	switch v.kind {
	case kNull:
		written = "null"
	case kString:
		written = v.str
		iri, err := b.expand(v.str, true, false)
		if err != nil {
			return fmt.Errorf("term %q: %w", term, err)
		}
		def.iri = iri
	case kObject:
		if id, ok := v.get("@id"); ok && id.kind == kString {
			written = id.str
			iri, err := b.expand(id.str, true, false)
			if err != nil {
				return fmt.Errorf("term %q: %w", term, err)
			}
			def.iri = iri
		} else if ok && id.kind == kNull {
			written = "null"
		} else {
			iri, err := b.expand(term, true, false)
			if err != nil {
				return fmt.Errorf("term %q: %w", term, err)
			}
			def.iri = iri
		}
		if t, ok := v.get("@type"); ok && t.kind == kString {
			def.coerce = t.str
			if t.str != "@id" && t.str != "@vocab" {
				iri, err := b.expand(t.str, true, false)
				if err != nil {
					return fmt.Errorf("term %q @type: %w", term, err)
				}
				def.coerce = iri
			}
		}
		if c, ok := v.get("@container"); ok && c.kind == kString {
			def.container = c.str
		}
	default:
		return fmt.Errorf("invalid definition of term %q: a %s", term, kindName(v.kind))
	}
	b.ctx.terms[term] = def
	b.defined[term] = true
	b.defs = append(b.defs, TermDef{Term: term, Value: written, IRI: def.iri})
	return nil
}

// expand is IRI expansion while the local context is being processed:
// terms and prefixes it uses are defined first.
func (b *contextBuilder) expand(value string, vocab, docRelative bool) (string, error) {
	if _, ok := b.local.get(value); ok && !strings.HasPrefix(value, "@") {
		if err := b.define(value); err != nil {
			return "", err
		}
	}
	if i := strings.Index(value, ":"); i > 0 {
		if _, ok := b.local.get(value[:i]); ok {
			if err := b.define(value[:i]); err != nil {
				return "", err
			}
		}
	}
	return b.ctx.expandIRI(value, vocab, docRelative), nil
}

// expandIRI is the JSON-LD IRI expansion algorithm. With vocab, terms and
// @vocab apply (property names, @type values); without, only compact IRIs
// and the base do (@id values). Any defined term can serve as a prefix, as
// in JSON-LD 1.0: so "kg:/m/0dl567" with kg = "http://g.co/kg" becomes
// "http://g.co/kg/m/0dl567". A key that maps to nothing returns "".
func (c *activeContext) expandIRI(value string, vocab, docRelative bool) string {
	if strings.HasPrefix(value, "@") {
		return value
	}
	if vocab {
		if d, ok := c.terms[value]; ok {
			return d.iri
		}
	}
	if i := strings.Index(value, ":"); i > 0 {
		prefix, suffix := value[:i], value[i+1:]
		if prefix == "_" || strings.HasPrefix(suffix, "//") {
			return value
		}
		if d, ok := c.terms[prefix]; ok && d.iri != "" {
			return d.iri + suffix
		}
		return value
	}
	if vocab && c.vocab != "" {
		return c.vocab + value
	}
	if docRelative {
		return resolve(c.base, value)
	}
	if vocab {
		return ""
	}
	return value
}

// resolve resolves ref against base; without a usable base, ref is returned.
func resolve(base, ref string) string {
	if base == "" {
		return ref
	}
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return b.ResolveReference(r).String()
}

func kindName(k kind) string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}
