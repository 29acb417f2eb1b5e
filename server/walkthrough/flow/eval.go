package flow

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Context is what runtime expressions read: the running workflow's inputs and steps, the
// workflows already finished, and the exchange being judged.
type Context struct {
	// Inputs are the workflow's inputs; Steps its steps' outputs by stepId.
	Inputs map[string]any
	Steps  map[string]map[string]any
	// Outputs are what $outputs reads: the outputs of the workflow a step just ran.
	Outputs map[string]any
	// Workflows are the workflows finished so far, by workflowId.
	Workflows map[string]*WorkflowResult
	// Doc gives the source descriptions and component parameters.
	Doc *Document
	// Exchange is the request sent and its answer; nil before a request is sent.
	Exchange *Exchange
}

// Exchange is a request as sent and its answer, as expressions read them.
type Exchange struct {
	// URL and Method are what was sent ($url, $method).
	URL    string `json:"url,omitempty"`
	Method string `json:"method,omitempty"`
	// Request holds the parameters sent, by location, and the body.
	Request Message `json:"request"`
	// Status is the answer's status, 0 when none came.
	Status int `json:"status,omitempty"`
	// Response holds the answer's headers and body.
	Response Message `json:"response"`
}

// Message is one side of an exchange.
type Message struct {
	// Header, Query and Path hold the values sent or received, by name (headers matched
	// without regard to case).
	Header map[string][]string `json:"header,omitempty"`
	Query  map[string]string   `json:"query,omitempty"`
	Path   map[string]string   `json:"path,omitempty"`
	// Body is a JSON body decoded, any other body as text; nil when there is none.
	Body any `json:"body,omitempty"`
}

// WorkflowResult is a finished workflow, as $workflows.<id> reads it.
type WorkflowResult struct {
	OK      bool           `json:"ok"`
	Inputs  map[string]any `json:"inputs,omitempty"`
	Outputs map[string]any `json:"outputs,omitempty"`
	Error   string         `json:"error,omitempty"`
}

// Eval evaluates a parsed expression. The error says what the expression reached and why
// there is nothing there.
func (c *Context) Eval(e Expr) (any, error) {
	v, err := c.root(e)
	if err != nil {
		return nil, err
	}
	if e.HasPointer && e.Pointer != "" {
		return Pointer(v, e.Pointer)
	}
	return v, nil
}

func (c *Context) root(e Expr) (any, error) {
	ex := c.Exchange
	switch e.Kind {
	case "url", "method", "statusCode", "request", "response":
		if ex == nil {
			return nil, fmt.Errorf("%s: no request was sent yet", e.Raw)
		}
	}
	switch e.Kind {
	case "url":
		return ex.URL, nil
	case "method":
		return ex.Method, nil
	case "statusCode":
		if ex.Status == 0 {
			return nil, fmt.Errorf("$statusCode: no answer arrived")
		}
		return ex.Status, nil
	case "request":
		return message(&ex.Request, e)
	case "response":
		if ex.Status == 0 {
			return nil, fmt.Errorf("%s: no answer arrived", e.Raw)
		}
		return message(&ex.Response, e)
	case "inputs":
		return named(c.Inputs, e.Name, "input", e.Raw)
	case "outputs":
		return named(c.Outputs, e.Name, "output", e.Raw)
	case "steps":
		outs, ok := c.Steps[e.ID]
		if !ok {
			return nil, fmt.Errorf("%s: step %s has not run in this workflow (or failed)", e.Raw, e.ID)
		}
		return named(outs, e.Name, "output of step "+e.ID, e.Raw)
	case "workflows":
		w := c.Workflows[e.ID]
		if w == nil {
			return nil, fmt.Errorf("%s: workflow %s has not run", e.Raw, e.ID)
		}
		if e.Field == "inputs" {
			return named(w.Inputs, e.Name, "input of workflow "+e.ID, e.Raw)
		}
		return named(w.Outputs, e.Name, "output of workflow "+e.ID, e.Raw)
	case "sourceDescriptions":
		if c.Doc != nil {
			for _, s := range c.Doc.Sources {
				if s.Name == e.ID && e.Name == "url" {
					return s.URL, nil
				}
				if s.Name == e.ID && e.Name == "type" {
					return s.Type, nil
				}
			}
		}
		return nil, fmt.Errorf("%s: no source description %s with that field", e.Raw, e.ID)
	case "components":
		if c.Doc != nil && e.ID == "parameters" {
			if p, ok := c.Doc.Parameters[e.Name]; ok {
				return c.Resolve(p.Value)
			}
		}
		return nil, fmt.Errorf("%s: no such component", e.Raw)
	}
	return nil, fmt.Errorf("%s: not available here", e.Raw)
}

func message(m *Message, e Expr) (any, error) {
	switch e.Source {
	case "header":
		for k, vs := range m.Header {
			if strings.EqualFold(k, e.Name) && len(vs) > 0 {
				return vs[0], nil
			}
		}
		return nil, fmt.Errorf("%s: there is no header %s", e.Raw, e.Name)
	case "query":
		if v, ok := m.Query[e.Name]; ok {
			return v, nil
		}
		return nil, fmt.Errorf("%s: no query parameter %s was sent", e.Raw, e.Name)
	case "path":
		if v, ok := m.Path[e.Name]; ok {
			return v, nil
		}
		return nil, fmt.Errorf("%s: no path parameter %s was sent", e.Raw, e.Name)
	}
	if m.Body == nil {
		return nil, fmt.Errorf("%s: there is no body", e.Raw)
	}
	return m.Body, nil
}

// named finds name in values: the whole name first, then the longest declared name before a
// dot, the rest read as members ($inputs.order.id).
func named(values map[string]any, name, what, raw string) (any, error) {
	if v, ok := values[name]; ok {
		return v, nil
	}
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		if v, ok := values[name[:i]]; ok {
			for _, m := range strings.Split(name[i+1:], ".") {
				obj, ok := v.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("%s: %s %s has no member %s", raw, what, name[:i], m)
				}
				if v, ok = obj[m]; !ok {
					return nil, fmt.Errorf("%s: %s %s has no member %s", raw, what, name[:i], m)
				}
			}
			return v, nil
		}
	}
	return nil, fmt.Errorf("%s: there is no %s %s", raw, what, name)
}

// Pointer resolves a JSON pointer (RFC 6901) in a JSON value.
func Pointer(v any, ptr string) (any, error) {
	if ptr == "" {
		return v, nil
	}
	cur := v
	for _, raw := range strings.Split(ptr[1:], "/") {
		tok := strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
		switch t := cur.(type) {
		case map[string]any:
			next, ok := t[tok]
			if !ok {
				return nil, fmt.Errorf("JSON pointer %s reaches nothing: no member %q", ptr, tok)
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(t) {
				return nil, fmt.Errorf("JSON pointer %s reaches nothing: no item %s in a list of %d", ptr, tok, len(t))
			}
			cur = t[i]
		case string:
			return nil, fmt.Errorf("JSON pointer %s reaches nothing: %q is text, not JSON", ptr, shorten(t))
		default:
			return nil, fmt.Errorf("JSON pointer %s reaches nothing: %s has no member %q", ptr, Text(cur), tok)
		}
	}
	return cur, nil
}

// Resolve evaluates the expressions of a JSON value: a string that is an expression becomes
// its value (of its own type), embedded ones are replaced by their text.
func (c *Context) Resolve(v any) (any, error) {
	switch t := v.(type) {
	case string:
		return c.String(t)
	case map[string]any:
		if sel, ok := AsSelector(t); ok {
			return c.Select(sel)
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			r, err := c.Resolve(e)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			r, err := c.Resolve(e)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// String evaluates a string that is an expression, or embeds some.
func (c *Context) String(s string) (any, error) {
	if IsExpr(s) {
		e, err := ParseExpr(s)
		if err != nil {
			return nil, err
		}
		return c.Eval(e)
	}
	if !strings.Contains(s, "{$") {
		return s, nil
	}
	pieces, err := ParseTemplate(s)
	if err != nil {
		return nil, err
	}
	if len(pieces) == 1 && pieces[0].Expr != nil {
		return c.Eval(*pieces[0].Expr)
	}
	var b strings.Builder
	for _, p := range pieces {
		if p.Expr == nil {
			b.WriteString(p.Text)
			continue
		}
		v, err := c.Eval(*p.Expr)
		if err != nil {
			return nil, err
		}
		b.WriteString(Text(v))
	}
	return b.String(), nil
}

// Text is a value as text: a string as is, null as "", anything else as JSON.
func Text(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case int:
		return strconv.Itoa(t)
	case bool:
		return strconv.FormatBool(t)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func shorten(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:37]) + "…"
	}
	return s
}
