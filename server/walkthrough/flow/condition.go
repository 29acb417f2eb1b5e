package flow

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// A simple condition (Arazzo 1.0.1 § Criterion Object): literals (true, false, null, numbers,
// 'strings' with '' for a quote), runtime expressions with [index] and .member after them, the
// comparisons < <= > >= == !=, and ! && || with parentheses. Comparisons are loose: a number
// and a numeric string compare as numbers, and strings compare without regard to case.

// Condition is a parsed simple condition.
type Condition struct {
	root node
}

type node interface{}

type (
	litNode  struct{ v any }
	exprNode struct {
		e    Expr
		path []any // member names (string) and indexes (int) after the expression
	}
	notNode   struct{ x node }
	logicNode struct {
		op   string
		l, r node
	}
	cmpNode struct {
		op   string
		l, r node
	}
)

// ParseCondition parses a simple condition; the error says where it stops making sense.
func ParseCondition(s string) (*Condition, error) {
	toks, err := tokenize(s)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		return nil, fmt.Errorf("unexpected %q after a complete condition", p.toks[p.i].text)
	}
	return &Condition{root: n}, nil
}

// Exprs returns the runtime expressions of the condition.
func (c *Condition) Exprs() []Expr {
	var out []Expr
	var walk func(n node)
	walk = func(n node) {
		switch t := n.(type) {
		case exprNode:
			out = append(out, t.e)
		case notNode:
			walk(t.x)
		case logicNode:
			walk(t.l)
			walk(t.r)
		case cmpNode:
			walk(t.l)
			walk(t.r)
		}
	}
	walk(c.root)
	return out
}

type token struct {
	kind string // lit, expr, op, (, ), [, ], .
	text string
	v    any
}

func tokenize(s string) ([]token, error) {
	var out []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')':
			out = append(out, token{kind: string(c), text: string(c)})
			i++
		case strings.HasPrefix(s[i:], "&&") || strings.HasPrefix(s[i:], "||") || strings.HasPrefix(s[i:], "==") ||
			strings.HasPrefix(s[i:], "!=") || strings.HasPrefix(s[i:], "<=") || strings.HasPrefix(s[i:], ">="):
			out = append(out, token{kind: "op", text: s[i : i+2]})
			i += 2
		case c == '<' || c == '>' || c == '!':
			out = append(out, token{kind: "op", text: string(c)})
			i++
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j++
						continue
					}
					break
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, fmt.Errorf("the string that starts at %q has no closing quote", s[i:])
			}
			out = append(out, token{kind: "lit", text: s[i : j+1], v: b.String()})
			i = j + 1
		case c == '$':
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\r\n()[]=!<>&|", rune(s[j])) {
				j++
			}
			raw := s[i:j]
			var path []token
			for _, body := range []string{"$response.body.", "$request.body."} {
				if rest, ok := strings.CutPrefix(raw, body); ok && !strings.Contains(body, "#") {
					raw = strings.TrimSuffix(body, ".")
					for _, m := range strings.Split(rest, ".") {
						path = append(path, token{kind: "."}, token{kind: "name", text: m})
					}
				}
			}
			out = append(out, token{kind: "expr", text: raw})
			out = append(out, path...)
			i = j
		case c == '[':
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("the index at %q has no closing ]", s[i:])
			}
			n, err := strconv.Atoi(strings.TrimSpace(s[i+1 : i+j]))
			if err != nil {
				return nil, fmt.Errorf("index %q: expected a number", s[i:i+j+1])
			}
			out = append(out, token{kind: "[", text: s[i : i+j+1], v: n})
			i += j + 1
		case c == '.' && len(out) > 0 && (out[len(out)-1].kind == "[" || out[len(out)-1].kind == "name"):
			j := i + 1
			for j < len(s) && !strings.ContainsRune(" \t\r\n()[]=!<>&|.", rune(s[j])) {
				j++
			}
			out = append(out, token{kind: "."}, token{kind: "name", text: s[i+1 : j]})
			i = j
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\r\n()=!<>&|", rune(s[j])) {
				j++
			}
			word := s[i:j]
			switch {
			case word == "true" || word == "false":
				out = append(out, token{kind: "lit", text: word, v: word == "true"})
			case word == "null":
				out = append(out, token{kind: "lit", text: word, v: nil})
			default:
				f, err := strconv.ParseFloat(word, 64)
				if err != nil || (!unicode.IsDigit(rune(word[0])) && word[0] != '-' && word[0] != '+' && word[0] != '.') {
					return nil, fmt.Errorf("%q is not a literal: strings are written in single quotes ('%s'), and runtime expressions start with $", word, word)
				}
				out = append(out, token{kind: "lit", text: word, v: f})
			}
			i = j
		}
	}
	return out, nil
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() *token {
	if p.i < len(p.toks) {
		return &p.toks[p.i]
	}
	return nil
}

func (p *parser) or() (node, error) {
	l, err := p.and()
	for err == nil {
		t := p.peek()
		if t == nil || t.kind != "op" || t.text != "||" {
			return l, nil
		}
		p.i++
		var r node
		if r, err = p.and(); err == nil {
			l = logicNode{"||", l, r}
		}
	}
	return nil, err
}

func (p *parser) and() (node, error) {
	l, err := p.unary()
	for err == nil {
		t := p.peek()
		if t == nil || t.kind != "op" || t.text != "&&" {
			return l, nil
		}
		p.i++
		var r node
		if r, err = p.unary(); err == nil {
			l = logicNode{"&&", l, r}
		}
	}
	return nil, err
}

func (p *parser) unary() (node, error) {
	if t := p.peek(); t != nil && t.kind == "op" && t.text == "!" {
		p.i++
		x, err := p.unary()
		return notNode{x}, err
	}
	l, err := p.operand()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if t == nil || t.kind != "op" || t.text == "&&" || t.text == "||" || t.text == "!" {
		return l, nil
	}
	p.i++
	r, err := p.operand()
	if err != nil {
		return nil, err
	}
	return cmpNode{t.text, l, r}, nil
}

func (p *parser) operand() (node, error) {
	t := p.peek()
	if t == nil {
		return nil, fmt.Errorf("the condition ends where a value is expected")
	}
	p.i++
	switch t.kind {
	case "lit":
		return litNode{t.v}, nil
	case "(":
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if c := p.peek(); c == nil || c.kind != ")" {
			return nil, fmt.Errorf("a ( is not closed")
		}
		p.i++
		return n, nil
	case "expr":
		e, err := ParseExpr(t.text)
		if err != nil {
			return nil, err
		}
		n := exprNode{e: e}
		for c := p.peek(); c != nil && (c.kind == "[" || c.kind == "."); c = p.peek() {
			if c.kind == "[" {
				n.path = append(n.path, c.v)
				p.i++
				continue
			}
			p.i++
			if m := p.peek(); m != nil && m.kind == "name" {
				n.path = append(n.path, m.text)
				p.i++
			}
		}
		return n, nil
	}
	return nil, fmt.Errorf("unexpected %q where a value is expected", t.text)
}
