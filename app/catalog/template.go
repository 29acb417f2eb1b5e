package catalog

import "strings"

// A path key of an OpenAPI document is a path template, and real documents put more in it than
// a path: AWS's "/#Action=DescribeInstances" and Box's "/files/{file_id}#add_shared_link" name
// operations that share a path after a '#', which is never sent; Weatherbit's
// "/alerts?lat={lat}&lon={lon}" writes part of the query. Variables are RFC 6570 expressions
// ({id}, {+name} whose value keeps its slashes, {.format}) or Google's path templates
// ({parent=projects/*}, {name=**}). This file takes such keys apart; app/request fills them
// and server/proxy matches calls against them.

// PathKey is a path key taken apart.
type PathKey struct {
	// Path is the template of the path that is sent: the key up to its '?' or '#'.
	Path []TemplatePart
	// Query is the template of the query the key writes after a '?' (before any '#'); empty
	// when it has none.
	Query []TemplatePart
	// Label is what follows a '#': it is never sent. When it has the form name=value (AWS's
	// Action=...), Fixed holds that pair: the operation's calls carry it in their query.
	Label string
	Fixed *[2]string
}

// TemplatePart is literal text of a template, or one variable.
type TemplatePart struct {
	// Literal is the text of a literal part; empty for a variable.
	Literal string
	// Var names the path parameter of a variable; empty for literal text.
	Var string
	// Operator is an RFC 6570 operator ('+', '#', '.', '/', ';', '?', '&'), or 0.
	Operator byte
	// Pattern is the pattern of a Google path template ("projects/*", "**"); empty otherwise.
	Pattern string
}

// Captures reports whether the variable's value may hold slashes sent as they are: a reserved
// expansion ({+name}, {#name}) or a Google pattern that spans segments.
func (t TemplatePart) Captures() bool {
	return t.Var != "" && (t.Operator == '+' || t.Operator == '#' || strings.Contains(t.Pattern, "/") || strings.Contains(t.Pattern, "**"))
}

// ParsePathKey takes a path key apart (see PathKey).
func ParsePathKey(key string) PathKey {
	var k PathKey
	rest := key
	// A '#' or '?' inside a variable ({#name}, {?q}) is an operator, not the key's end.
	cut := func(sep byte) (string, string, bool) {
		depth := 0
		for i := 0; i < len(rest); i++ {
			switch rest[i] {
			case '{':
				depth++
			case '}':
				depth--
			case sep:
				if depth == 0 {
					return rest[:i], rest[i+1:], true
				}
			}
		}
		return rest, "", false
	}
	if before, label, ok := cut('#'); ok {
		rest, k.Label = before, label
		if name, value, ok := strings.Cut(label, "="); ok && name != "" && !strings.ContainsAny(label, "{}&") {
			k.Fixed = &[2]string{name, value}
		}
	}
	if path, query, ok := cut('?'); ok {
		k.Path, k.Query = ParseTemplate(path), ParseTemplate(query)
		return k
	}
	k.Path = ParseTemplate(rest)
	return k
}

// RequestPath returns the path a key's calls are sent to, with its variables: the key up to
// its '?' or '#'.
func RequestPath(key string) string {
	var b strings.Builder
	for _, p := range ParsePathKey(key).Path {
		b.WriteString(p.String())
	}
	return b.String()
}

// String writes the part back as a template writes it.
func (t TemplatePart) String() string {
	if t.Var == "" {
		return t.Literal
	}
	var b strings.Builder
	b.WriteByte('{')
	if t.Operator != 0 {
		b.WriteByte(t.Operator)
	}
	b.WriteString(t.Var)
	if t.Pattern != "" {
		b.WriteByte('=')
		b.WriteString(t.Pattern)
	}
	b.WriteByte('}')
	return b.String()
}

// ParseTemplate splits a template into literal text and variables. An unclosed '{' is
// literal text.
func ParseTemplate(tmpl string) []TemplatePart {
	var out []TemplatePart
	for tmpl != "" {
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			out = append(out, TemplatePart{Literal: tmpl})
			break
		}
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			out = append(out, TemplatePart{Literal: tmpl})
			break
		}
		if open > 0 {
			out = append(out, TemplatePart{Literal: tmpl[:open]})
		}
		expr := tmpl[open+1 : open+end]
		tmpl = tmpl[open+end+1:]
		v := TemplatePart{}
		if expr != "" && strings.IndexByte("+#./;?&", expr[0]) >= 0 {
			v.Operator, expr = expr[0], expr[1:]
		}
		v.Var, v.Pattern, _ = strings.Cut(expr, "=")
		v.Var = strings.TrimSuffix(v.Var, "*") // RFC 6570's explode modifier
		if v.Var == "" {
			out = append(out, TemplatePart{Literal: "{" + expr + "}"})
			continue
		}
		out = append(out, v)
	}
	return out
}

// PathVars returns the names of a path key's variables, in order, once each.
func PathVars(key string) []string {
	k := ParsePathKey(key)
	var out []string
	seen := map[string]bool{}
	for _, p := range append(append([]TemplatePart(nil), k.Path...), k.Query...) {
		if p.Var != "" && !seen[p.Var] {
			seen[p.Var] = true
			out = append(out, p.Var)
		}
	}
	return out
}
