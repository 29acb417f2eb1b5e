package script

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The sandbox does not run JavaScript. evaluate interprets only the first statement of the
// called function, which covers the documented functions:
//
//   - return <expr>; where expr is a literal (string, number, true, false, null, array, object
//     with identifier or string keys) or a parameter name: the result is that value;
//   - throw new <Type>(<expr>); or throw <expr>;: the run fails with that error type and message;
//   - an empty body, or any other statement: the function returns nothing (no result).
//
// An unknown identifier in an expression is a ReferenceError ("x is not defined"), as in V8.

// scriptFailure is an exception thrown while running: type, message and the failing line.
type scriptFailure struct {
	errType, message, function string
	line                       int
}

// undefined is the JavaScript undefined value (a function that returns nothing).
type undefinedValue struct{}

var undefined = undefinedValue{}

// evaluate runs the function name of the SERVER_JS files with args. It returns the result
// (undefined when nothing is returned), or the failure; found is false for an unknown function.
func evaluate(files []file, name string, args []any) (result any, fail *scriptFailure, found bool) {
	decl := regexp.MustCompile(`(?m)^[ \t]*function[ \t]+` + regexp.QuoteMeta(name) + `[ \t]*\(([^)]*)\)[ \t]*\{`)
	for _, f := range files {
		if f.typ != "SERVER_JS" {
			continue
		}
		loc := decl.FindStringSubmatchIndex(f.source)
		if loc == nil {
			continue
		}
		params := map[string]any{}
		for i, p := range functionsOfParams(f.source[loc[2]:loc[3]]) {
			params[p] = undefined
			if i < len(args) {
				params[p] = args[i]
			}
		}
		body := f.source[loc[1]:]
		stmt := strings.TrimLeft(skipComments(body), " \t\r\n")
		line := 1 + strings.Count(f.source[:len(f.source)-len(stmt)], "\n")
		ev := &evaluator{src: stmt, params: params}
		fail := func(typ, msg string) *scriptFailure {
			return &scriptFailure{errType: typ, message: msg, function: name, line: line}
		}
		switch {
		case keyword(stmt, "return"):
			ev.pos = len("return")
			if ev.peekEnd() {
				return undefined, nil, true
			}
			v, err := ev.value()
			if err != nil {
				return nil, fail(err.typ, err.msg), true
			}
			return v, nil, true
		case keyword(stmt, "throw"):
			ev.pos = len("throw")
			typ := "Error"
			if ev.word("new") {
				typ = ev.ident()
				ev.expect('(')
			}
			v, err := ev.value()
			if err != nil {
				return nil, fail(err.typ, err.msg), true
			}
			return nil, fail(typ, fmt.Sprint(v)), true
		}
		return undefined, nil, true
	}
	return nil, nil, false
}

// functionsOfParams splits a parameter list into names.
func functionsOfParams(list string) []string {
	var out []string
	for _, p := range strings.Split(list, ",") {
		p, _, _ = strings.Cut(p, "=")
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// skipComments drops leading whitespace and // or /* */ comments.
func skipComments(s string) string {
	for {
		t := strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(t, "//"):
			_, rest, _ := strings.Cut(t, "\n")
			s = rest
		case strings.HasPrefix(t, "/*"):
			_, rest, ok := strings.Cut(t[2:], "*/")
			if !ok {
				return ""
			}
			s = rest
		default:
			return s
		}
	}
}

// keyword reports whether s starts with the keyword kw as a whole word.
func keyword(s, kw string) bool {
	return strings.HasPrefix(s, kw) && (len(s) == len(kw) || !isIdent(s[len(kw)]))
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// evalError is a thrown error type and message.
type evalError struct{ typ, msg string }

// evaluator parses one expression of src from pos.
type evaluator struct {
	src    string
	pos    int
	params map[string]any
}

func (e *evaluator) skip() {
	for e.pos < len(e.src) && strings.IndexByte(" \t\r\n", e.src[e.pos]) >= 0 {
		e.pos++
	}
}

// peekEnd reports whether the statement ends here (; } or end of line).
func (e *evaluator) peekEnd() bool {
	for e.pos < len(e.src) && (e.src[e.pos] == ' ' || e.src[e.pos] == '\t') {
		e.pos++
	}
	return e.pos >= len(e.src) || strings.IndexByte(";}\r\n", e.src[e.pos]) >= 0
}

// word consumes the keyword w if it comes next.
func (e *evaluator) word(w string) bool {
	e.skip()
	if keyword(e.src[e.pos:], w) {
		e.pos += len(w)
		return true
	}
	return false
}

// ident consumes an identifier.
func (e *evaluator) ident() string {
	e.skip()
	start := e.pos
	for e.pos < len(e.src) && isIdent(e.src[e.pos]) {
		e.pos++
	}
	return e.src[start:e.pos]
}

// expect consumes c if it comes next.
func (e *evaluator) expect(c byte) bool {
	e.skip()
	if e.pos < len(e.src) && e.src[e.pos] == c {
		e.pos++
		return true
	}
	return false
}

func syntaxError() *evalError { return &evalError{"SyntaxError", "Unexpected token"} }

// value parses a literal or a parameter name.
func (e *evaluator) value() (any, *evalError) {
	e.skip()
	if e.pos >= len(e.src) {
		return nil, syntaxError()
	}
	switch c := e.src[e.pos]; {
	case c == '[':
		e.pos++
		out := []any{}
		for !e.expect(']') {
			v, err := e.value()
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			if !e.expect(',') && !e.expect(']') {
				return nil, syntaxError()
			} else if e.src[e.pos-1] == ']' {
				break
			}
		}
		return out, nil
	case c == '{':
		e.pos++
		out := map[string]any{}
		for !e.expect('}') {
			e.skip()
			var k string
			if e.pos < len(e.src) && (e.src[e.pos] == '\'' || e.src[e.pos] == '"') {
				kv, err := e.str()
				if err != nil {
					return nil, err
				}
				k = kv
			} else if k = e.ident(); k == "" {
				return nil, syntaxError()
			}
			if !e.expect(':') {
				return nil, syntaxError()
			}
			v, err := e.value()
			if err != nil {
				return nil, err
			}
			out[k] = v
			if !e.expect(',') && !e.expect('}') {
				return nil, syntaxError()
			} else if e.src[e.pos-1] == '}' {
				break
			}
		}
		return out, nil
	case c == '\'' || c == '"':
		return e.str()
	case c == '-' || c >= '0' && c <= '9':
		start := e.pos
		e.pos++
		for e.pos < len(e.src) && strings.IndexByte("0123456789.eE+-", e.src[e.pos]) >= 0 {
			e.pos++
		}
		f, err := strconv.ParseFloat(e.src[start:e.pos], 64)
		if err != nil {
			return nil, syntaxError()
		}
		return f, nil
	}
	switch id := e.ident(); id {
	case "":
		return nil, syntaxError()
	case "true", "false":
		return id == "true", nil
	case "null":
		return nil, nil
	case "undefined":
		return undefined, nil
	default:
		if v, ok := e.params[id]; ok {
			return v, nil
		}
		return nil, &evalError{"ReferenceError", id + " is not defined"}
	}
}

// str parses a quoted string with simple escapes.
func (e *evaluator) str() (string, *evalError) {
	q := e.src[e.pos]
	e.pos++
	var b strings.Builder
	for e.pos < len(e.src) {
		c := e.src[e.pos]
		e.pos++
		switch {
		case c == q:
			return b.String(), nil
		case c == '\\' && e.pos < len(e.src):
			n := e.src[e.pos]
			e.pos++
			switch n {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(n)
			}
		case c == '\n':
			return "", &evalError{"SyntaxError", "Invalid or unexpected token"}
		default:
			b.WriteByte(c)
		}
	}
	return "", &evalError{"SyntaxError", "Invalid or unexpected token"}
}
