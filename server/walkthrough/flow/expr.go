package flow

import (
	"fmt"
	"strings"
)

// Expr is a parsed runtime expression (Arazzo 1.0.1 § Runtime Expressions, with 1.1.0's
// JSON pointers after $inputs, $outputs and $steps/$workflows outputs).
type Expr struct {
	// Raw is the expression as written.
	Raw string
	// Kind is the expression's root: url, method, statusCode, request, response, inputs,
	// outputs, steps, workflows, sourceDescriptions, components or self.
	Kind string
	// Source is what a request or response expression reads: header, query, path or body.
	Source string
	// ID is the step, workflow, source description or component type named.
	ID string
	// Field is a workflow's inputs or outputs.
	Field string
	// Name is the header, parameter, input, output or component named.
	Name string
	// Pointer is the JSON pointer after "#" (without it); HasPointer tells "#" from none.
	Pointer    string
	HasPointer bool
}

// IsExpr reports whether s is written as a runtime expression: "$" then a letter, with no
// space ("$inputs.id", or a typo such as "$inputz.id", which ParseExpr then refuses). A
// string such as "$5" or "$ 5" is a literal.
func IsExpr(s string) bool {
	if len(s) < 2 || s[0] != '$' || !(s[1] >= 'a' && s[1] <= 'z' || s[1] >= 'A' && s[1] <= 'Z') {
		return false
	}
	return !strings.ContainsAny(s, " \t\r\n")
}

// ParseExpr parses a runtime expression. The error says what is expected.
func ParseExpr(s string) (Expr, error) {
	e := Expr{Raw: s}
	body, ptr, hasPtr := strings.Cut(s, "#")
	e.Pointer, e.HasPointer = ptr, hasPtr
	if hasPtr && ptr != "" && !strings.HasPrefix(ptr, "/") {
		return e, fmt.Errorf("%q: a JSON pointer after # starts with /", s)
	}
	bad := func(want string) (Expr, error) {
		return e, fmt.Errorf("%q is not a runtime expression: expected %s", s, want)
	}
	root, rest, _ := strings.Cut(strings.TrimPrefix(body, "$"), ".")
	if !strings.HasPrefix(body, "$") {
		return bad("one that starts with $")
	}
	e.Kind = root
	switch root {
	case "url", "method", "statusCode", "self":
		if rest != "" || hasPtr {
			return bad("$" + root + " alone")
		}
	case "request", "response":
		src, name, _ := strings.Cut(rest, ".")
		e.Source, e.Name = src, name
		switch src {
		case "header", "query", "path":
			if name == "" || hasPtr {
				return bad(fmt.Sprintf("$%s.%s.<name>", root, src))
			}
		case "body":
			if name != "" {
				return bad(fmt.Sprintf("$%s.body or $%s.body#/json/pointer", root, root))
			}
		default:
			return bad(fmt.Sprintf("$%s.header.<name>, .query.<name>, .path.<name> or .body", root))
		}
	case "inputs", "outputs":
		if rest == "" {
			return bad("$" + root + ".<name>")
		}
		e.Name = rest
	case "steps":
		id, tail, _ := strings.Cut(rest, ".")
		field, name, _ := strings.Cut(tail, ".")
		if id == "" || field != "outputs" || name == "" {
			return bad("$steps.<stepId>.outputs.<name>")
		}
		e.ID, e.Field, e.Name = id, field, name
	case "workflows":
		id, tail, _ := strings.Cut(rest, ".")
		field, name, _ := strings.Cut(tail, ".")
		if id == "" || (field != "inputs" && field != "outputs") || name == "" {
			return bad("$workflows.<workflowId>.inputs.<name> or .outputs.<name>")
		}
		e.ID, e.Field, e.Name = id, field, name
	case "sourceDescriptions":
		id, name, _ := strings.Cut(rest, ".")
		if id == "" || name == "" {
			return bad("$sourceDescriptions.<name>.url (or .<operationId>)")
		}
		e.ID, e.Name = id, name
	case "components":
		typ, name, _ := strings.Cut(rest, ".")
		if typ == "" || name == "" {
			return bad("$components.<type>.<name>")
		}
		e.ID, e.Name = typ, name
	default:
		return bad("$url, $method, $statusCode, $request.…, $response.…, $inputs.…, $outputs.…, $steps.…, $workflows.…, $sourceDescriptions.… or $components.…")
	}
	return e, nil
}

// Piece is a part of a template string: literal text, or an embedded expression.
type Piece struct {
	Text string
	Expr *Expr
}

// ParseTemplate splits a string with embedded expressions ("id={$inputs.id}") into its
// pieces. Text in braces that is not an expression ("{not one}") stays literal.
func ParseTemplate(s string) ([]Piece, error) {
	var out []Piece
	for {
		i := strings.Index(s, "{$")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		inner := s[i+1 : i+j]
		if !IsExpr(inner) {
			out = append(out, Piece{Text: s[:i+2]})
			s = s[i+2:]
			continue
		}
		e, err := ParseExpr(inner)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out = append(out, Piece{Text: s[:i]})
		}
		out = append(out, Piece{Expr: &e})
		s = s[i+j+1:]
	}
	if s != "" {
		out = append(out, Piece{Text: s})
	}
	return out, nil
}

// Expressions returns every runtime expression a value holds: strings that are one, and
// those embedded in strings, with the errors of those that do not parse.
func Expressions(v any) ([]Expr, []error) {
	var out []Expr
	var errs []error
	walkStrings(v, func(s string) {
		switch {
		case IsExpr(s):
			e, err := ParseExpr(s)
			if err != nil {
				errs = append(errs, err)
				return
			}
			out = append(out, e)
		case strings.Contains(s, "{$"):
			pieces, err := ParseTemplate(s)
			if err != nil {
				errs = append(errs, err)
				return
			}
			for _, p := range pieces {
				if p.Expr != nil {
					out = append(out, *p.Expr)
				}
			}
		}
	})
	return out, errs
}

// walkStrings calls f with every string of a JSON value.
func walkStrings(v any, f func(string)) {
	switch t := v.(type) {
	case string:
		f(t)
	case map[string]any:
		for _, e := range t {
			walkStrings(e, f)
		}
	case []any:
		for _, e := range t {
			walkStrings(e, f)
		}
	}
}
