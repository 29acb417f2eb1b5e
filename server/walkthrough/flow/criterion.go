package flow

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/antchfx/xmlquery"
	"github.com/antchfx/xpath"
	"github.com/theory/jsonpath"
)

// Outcomes of a criterion.
const (
	Passed     = "passed"
	Failed     = "failed"
	NotChecked = "not checked"
)

// CriterionResult is what became of a criterion, and why.
type CriterionResult struct {
	// Condition is the criterion as reports show it ("context ~ condition" for the typed ones).
	Condition string `json:"condition"`
	// Type is simple, regex, jsonpath or xpath.
	Type string `json:"type"`
	// Outcome is Passed, Failed or NotChecked.
	Outcome string `json:"outcome"`
	// Why says what the criterion read: the values of its expressions, what the pattern or
	// query found, or why it could not be evaluated.
	Why string `json:"why,omitempty"`
}

// Label is a criterion as reports show it.
func (c Criterion) Label() string {
	if c.Context != "" && c.Type != "" && c.Type != "simple" {
		return c.Context + " ~ " + c.Condition
	}
	return c.Condition
}

// Check parses a criterion without evaluating it: what a loader reports before any request.
// The {$…} expressions a regex, JSONPath or XPath condition embeds are parsed, and stand for a
// number while the condition itself is.
func (c Criterion) Check() error {
	if c.effectiveType() != "simple" && strings.Contains(c.Condition, "{$") {
		pieces, err := ParseTemplate(c.Condition)
		if err != nil {
			return err
		}
		var b strings.Builder
		for _, p := range pieces {
			if p.Expr != nil {
				b.WriteString("0")
			} else {
				b.WriteString(p.Text)
			}
		}
		c.Condition = b.String()
	}
	switch c.effectiveType() {
	case "simple":
		_, err := ParseCondition(c.Condition)
		return err
	case "regex":
		_, err := compileRegex(c.Condition)
		return err
	case "jsonpath":
		if c.Version != "" && c.Version != "rfc9535" {
			return fmt.Errorf("JSONPath version %q: Loupe evaluates RFC 9535 JSONPath only", c.Version)
		}
		_, err := jsonpath.Parse(c.Condition)
		return err
	case "xpath":
		if c.Version != "" && c.Version != "xpath-10" && c.Version != "xpath-20" && c.Version != "xpath-30" && c.Version != "xpath-31" {
			return fmt.Errorf("XPath version %q: expected xpath-10, xpath-20, xpath-30 or xpath-31", c.Version)
		}
		_, err := xpath.Compile(c.Condition)
		return err
	}
	return fmt.Errorf("criterion type %q: expected simple, regex, jsonpath or xpath", c.Type)
}

func (c Criterion) effectiveType() string {
	if c.Type == "" {
		return "simple"
	}
	return c.Type
}

// Evaluate evaluates the criterion. A criterion that cannot be evaluated fails, and its Why
// says why (Arazzo 1.1 § Evaluation Errors).
func (c Criterion) Evaluate(ctx *Context) CriterionResult {
	res := CriterionResult{Condition: c.Label(), Type: c.effectiveType(), Outcome: Failed}
	ok, why, err := c.evaluate(ctx)
	switch {
	case err != nil:
		res.Why = err.Error()
	case ok:
		res.Outcome, res.Why = Passed, why
	default:
		res.Why = why
	}
	return res
}

func (c Criterion) evaluate(ctx *Context) (bool, string, error) {
	typ := c.effectiveType()
	if typ == "simple" && c.Context == "" {
		cond, err := ParseCondition(c.Condition)
		if err != nil {
			return false, "", err
		}
		var seen []string
		ok, err := cond.Eval(ctx, &seen)
		return ok, strings.Join(seen, "; "), err
	}
	if c.Context == "" {
		return false, "", fmt.Errorf("a %s criterion needs a context", typ)
	}
	val, err := ctx.String(c.Context)
	if err != nil {
		return false, "", err
	}
	cond, err := ctx.embedded(c.Condition, typ)
	if err != nil {
		return false, "", err
	}
	switch typ {
	case "simple": // a context with a simple condition: the context's text equals the condition
		return strings.EqualFold(Text(val), cond), c.Context + " = " + quoteText(val), nil
	case "regex":
		re, err := compileRegex(cond)
		if err != nil {
			return false, "", err
		}
		text := Text(val)
		if m := re.FindString(text); m != "" || re.MatchString(text) {
			return true, fmt.Sprintf("matched %q", shortenTo(m, 60)), nil
		}
		return false, fmt.Sprintf("no match in %s", quoteText(text)), nil
	case "jsonpath":
		return jsonPathHolds(cond, val)
	case "xpath":
		return xpathHolds(cond, val)
	}
	return false, "", fmt.Errorf("criterion type %q: expected simple, regex, jsonpath or xpath", c.Type)
}

// embedded replaces the {$…} expressions of a regex, JSONPath or XPath condition by their
// values (Arazzo 1.1): in a regex as literal text; in JSONPath and XPath as their text when the
// author wrote the quotes around them ('{$…}'), else as a literal of the query language (a
// string quoted, as Redocly Respect writes it).
func (c *Context) embedded(cond, typ string) (string, error) {
	if !strings.Contains(cond, "{$") {
		return cond, nil
	}
	pieces, err := ParseTemplate(cond)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range pieces {
		if p.Expr == nil {
			b.WriteString(p.Text)
			continue
		}
		v, err := c.Eval(*p.Expr)
		if err != nil {
			return "", err
		}
		s := Text(v)
		prev := b.String()
		quoted := strings.HasSuffix(prev, "'") || strings.HasSuffix(prev, `"`)
		switch str, isString := v.(string); {
		case typ == "regex":
			s = regexp.QuoteMeta(s)
		case quoted:
		case isString && typ == "jsonpath":
			q, _ := json.Marshal(str)
			s = string(q)
		case isString && strings.Contains(str, "'"):
			s = `"` + str + `"`
		case isString:
			s = "'" + str + "'"
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// compileRegex compiles a regex condition: a pattern, or /pattern/flags as Redocly Respect
// also reads it (flags i, m and s; g, u and y change nothing for a match).
func compileRegex(cond string) (*regexp.Regexp, error) {
	pattern := cond
	if len(cond) > 1 && cond[0] == '/' {
		if end := strings.LastIndexByte(cond, '/'); end > 0 && strings.Trim(cond[end+1:], "gimsuy") == "" {
			pattern = cond[1:end]
			if flags := strings.Trim(cond[end+1:], "guy"); flags != "" {
				pattern = "(?" + flags + ")" + pattern
			}
		}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("regex %q does not compile: %w", cond, err)
	}
	return re, nil
}

// jsonPathHolds applies an RFC 9535 query to the context: the criterion holds when it selects
// at least one node. A query that starts with a filter at the root ($[?…]) applied to an
// object tests the object itself, as the specification's examples ($[?count(@.pets) > 0]) and
// Redocly Respect read it; applied to a list it tests the list's items.
func jsonPathHolds(cond string, val any) (bool, string, error) {
	p, err := jsonpath.Parse(cond)
	if err != nil {
		return false, "", fmt.Errorf("JSONPath %q does not parse: %w", cond, err)
	}
	if s, ok := val.(string); ok {
		var decoded any
		if json.Unmarshal([]byte(s), &decoded) != nil {
			return false, "", fmt.Errorf("the context is text, not JSON: %s", quoteText(s))
		}
		val = decoded
	}
	target := val
	if _, list := val.([]any); !list && strings.HasPrefix(strings.TrimSpace(cond), "$[?") {
		target = []any{val}
	}
	nodes := p.Select(target)
	if len(nodes) == 0 {
		return false, "selected nothing", nil
	}
	return true, fmt.Sprintf("selected %d node(s), the first %s", len(nodes), quoteText(nodes[0])), nil
}

// xpathHolds applies an XPath 1.0 expression to an XML context: a true boolean, a non-zero
// number, a non-empty string or a non-empty node set holds (XPath 1.0 § 4.2).
func xpathHolds(cond string, val any) (bool, string, error) {
	text, ok := val.(string)
	if !ok {
		return false, "", fmt.Errorf("the context is %s, not XML text", quoteText(val))
	}
	doc, err := xmlquery.Parse(strings.NewReader(text))
	if err != nil {
		return false, "", fmt.Errorf("the context is not XML: %w", err)
	}
	expr, err := xpath.Compile(cond)
	if err != nil {
		return false, "", fmt.Errorf("XPath %q does not compile: %w", cond, err)
	}
	switch r := expr.Evaluate(xmlquery.CreateXPathNavigator(doc)).(type) {
	case bool:
		return r, fmt.Sprintf("the expression is %t", r), nil
	case float64:
		return r != 0, fmt.Sprintf("the expression is %s", Text(r)), nil
	case string:
		return r != "", fmt.Sprintf("the expression is %q", shortenTo(r, 60)), nil
	case *xpath.NodeIterator:
		n := 0
		first := ""
		for r.MoveNext() {
			if n == 0 {
				first = r.Current().Value()
			}
			n++
		}
		if n == 0 {
			return false, "selected no node", nil
		}
		return true, fmt.Sprintf("selected %d node(s), the first %q", n, shortenTo(first, 60)), nil
	}
	return false, "", fmt.Errorf("XPath %q gave a value of no known type", cond)
}
