package flow

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// undefined is the value of an expression that reaches nothing: it equals null, and any
// other use of it fails with why it reaches nothing.
type undefined struct{ err error }

// Eval evaluates the condition. seen receives "expression = value" for every runtime
// expression read, for reports that say why a criterion held or failed.
func (c *Condition) Eval(ctx *Context, seen *[]string) (bool, error) {
	v, err := evalNode(c.root, ctx, seen)
	if err != nil {
		return false, err
	}
	switch t := v.(type) {
	case bool:
		return t, nil
	case undefined:
		return false, t.err
	}
	return false, fmt.Errorf("the condition is %s, not true or false", Text(v))
}

func evalNode(n node, ctx *Context, seen *[]string) (any, error) {
	switch t := n.(type) {
	case litNode:
		return t.v, nil
	case exprNode:
		v, err := ctx.Eval(t.e)
		if err == nil {
			v, err = follow(v, t.path)
		}
		raw := t.e.Raw + pathText(t.path)
		if err != nil {
			*seen = append(*seen, raw+" reaches nothing")
			return undefined{err}, nil
		}
		*seen = append(*seen, raw+" = "+quoteText(v))
		return v, nil
	case notNode:
		v, err := evalNode(t.x, ctx, seen)
		if err != nil {
			return nil, err
		}
		b, err := truth(v)
		return !b, err
	case logicNode:
		l, err := evalNode(t.l, ctx, seen)
		if err != nil {
			return nil, err
		}
		lb, err := truth(l)
		if err != nil {
			return nil, err
		}
		if (t.op == "&&" && !lb) || (t.op == "||" && lb) {
			return lb, nil
		}
		r, err := evalNode(t.r, ctx, seen)
		if err != nil {
			return nil, err
		}
		return truth(r)
	case cmpNode:
		l, err := evalNode(t.l, ctx, seen)
		if err != nil {
			return nil, err
		}
		r, err := evalNode(t.r, ctx, seen)
		if err != nil {
			return nil, err
		}
		return compare(t.op, l, r)
	}
	return nil, errors.New("unknown condition")
}

func truth(v any) (bool, error) {
	switch t := v.(type) {
	case bool:
		return t, nil
	case undefined:
		return false, t.err
	}
	return false, fmt.Errorf("%s is not true or false", quoteText(v))
}

// follow applies the [index] and .member after an expression.
func follow(v any, path []any) (any, error) {
	for _, p := range path {
		switch k := p.(type) {
		case int:
			list, ok := v.([]any)
			if !ok || k < 0 || k >= len(list) {
				return nil, fmt.Errorf("[%d] reaches nothing", k)
			}
			v = list[k]
		case string:
			obj, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf(".%s reaches nothing", k)
			}
			if v, ok = obj[k]; !ok {
				return nil, fmt.Errorf(".%s reaches nothing", k)
			}
		}
	}
	return v, nil
}

func pathText(path []any) string {
	var b strings.Builder
	for _, p := range path {
		if i, ok := p.(int); ok {
			fmt.Fprintf(&b, "[%d]", i)
		} else {
			b.WriteString("." + p.(string))
		}
	}
	return b.String()
}

// compare applies a comparison loosely, as the specification asks.
func compare(op string, l, r any) (bool, error) {
	lu, lUndef := l.(undefined)
	ru, rUndef := r.(undefined)
	if lUndef || rUndef {
		other, u := r, lu
		if rUndef {
			other, u = l, ru
		}
		if other == nil && (op == "==" || op == "!=") {
			return op == "==", nil // a value that is not there equals null
		}
		return false, u.err
	}
	if ln, lok := number(l); lok {
		if rn, rok := number(r); rok {
			return order(op, cmpFloat(ln, rn))
		}
	}
	if l == nil || r == nil {
		switch op {
		case "==":
			return l == nil && r == nil, nil
		case "!=":
			return !(l == nil && r == nil), nil
		}
		return false, fmt.Errorf("null cannot be ordered with %s", op)
	}
	lb, lok := l.(bool)
	rb, rok := r.(bool)
	if lok || rok {
		if !lok {
			lb, lok = boolText(l)
		}
		if !rok {
			rb, rok = boolText(r)
		}
		if lok && rok && (op == "==" || op == "!=") {
			return (lb == rb) == (op == "=="), nil
		}
		if op == "==" || op == "!=" {
			return op == "!=", nil
		}
		return false, fmt.Errorf("true and false cannot be ordered with %s", op)
	}
	return order(op, strings.Compare(strings.ToLower(Text(l)), strings.ToLower(Text(r))))
}

func order(op string, c int) (bool, error) {
	switch op {
	case "==":
		return c == 0, nil
	case "!=":
		return c != 0, nil
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	case ">=":
		return c >= 0, nil
	}
	return false, fmt.Errorf("unknown operator %s", op)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// number reads a number, or a string that is one.
func number(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case int:
		return float64(t), true
	case int64:
		return float64(t), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		return f, err == nil && strings.TrimSpace(t) != ""
	}
	return 0, false
}

func boolText(v any) (bool, bool) {
	s, ok := v.(string)
	if !ok {
		return false, false
	}
	b, err := strconv.ParseBool(strings.ToLower(s))
	return b, err == nil
}

// quoteText is a value as reports show it: strings quoted, long values shortened.
func quoteText(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(shortenTo(s, 60))
	}
	if v == nil {
		return "null"
	}
	return shortenTo(Text(v), 60)
}

func shortenTo(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
