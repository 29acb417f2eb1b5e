package walkthrough

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pb33f/libopenapi/arazzo"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/app/sse"
)

// maxBody bounds the response body a step keeps, as the app's response panel does.
const maxBody = 32 << 20

// HTTPExecutor is the arazzo.Executor of walkthroughs: it builds each step's request with the
// app's own request builder (loupe/app/request: the same validation, escaping and encoding as
// the operation page's form) and sends it over HTTP.
//
// A parameter whose value is an object {fromLink: <url>} is sent with that parameter's values
// in the link's query: an API's next link (a cursor, a page token) becomes the next step's
// parameter, as Loupe's Next button does. Arazzo 1.0 has no way to take a URL apart.
//
// The engine reads the answer as $response.body: JSON bodies decoded, an event stream
// (text/event-stream) as the list of its events' data, each decoded when it is JSON (the
// closing "[DONE]" of a chat stream dropped), any other body as text.
type HTTPExecutor struct {
	// API is the walkthrough's API, whose operations the steps call. Required.
	API *catalog.API
	// Base is where the API's requests go, for example "http://127.0.0.1:8080/proxy/chat"
	// (through Loupe's proxy, which adds the credential) or the API's own base URL. Required.
	Base string
	// Client sends the requests. Nil means, in Run, a client with a cookie jar of the run's own,
	// so that every step of a run is one visitor: Loupe's sandboxes keep one state per visitor
	// (its loupe_sandbox cookie), and a step must see what the previous ones changed.
	Client *http.Client
	// Sent, when not nil, is called after each exchange, answered or not.
	Sent func(Exchange)
}

// withJar returns c, or a new client with a cookie jar when c is nil.
func withJar(c *http.Client) *http.Client {
	if c != nil {
		return c
	}
	jar, _ := cookiejar.New(nil) // never fails without options
	return &http.Client{Jar: jar}
}

// Exchange is one request a walkthrough sent and what came back.
type Exchange struct {
	// OperationID is the operation the step called.
	OperationID string
	// Method and URL are what was sent.
	Method, URL string
	// Status is the answer's status; 0 when none arrived (Err says why).
	Status int
	// Duration is from sending to the end of the body.
	Duration time.Duration
	// Err is why no answer arrived, or why the request could not be built.
	Err error
}

// sendError is a failure of the executor (the request could not be built or sent), as opposed
// to one of the engine's (an expression, a criterion).
type sendError struct{ err error }

func (e *sendError) Error() string { return e.err.Error() }
func (e *sendError) Unwrap() error { return e.err }

// Execute implements arazzo.Executor.
func (x *HTTPExecutor) Execute(ctx context.Context, er *arazzo.ExecutionRequest) (*arazzo.ExecutionResponse, error) {
	ex := Exchange{OperationID: er.OperationID}
	res, err := x.execute(ctx, er, &ex)
	if err != nil {
		ex.Err = err
		err = &sendError{err}
	}
	if x.Sent != nil {
		x.Sent(ex)
	}
	return res, err
}

func (x *HTTPExecutor) execute(ctx context.Context, er *arazzo.ExecutionRequest, ex *Exchange) (*arazzo.ExecutionResponse, error) {
	op := x.API.Operation(er.OperationID)
	if op == nil {
		return nil, fmt.Errorf("%s has no operation %q", x.API.Title, er.OperationID)
	}
	st := request.State{Params: map[string][]string{}}
	for name, v := range er.Parameters {
		p := findParam(op, name, "")
		if p == nil {
			return nil, fmt.Errorf("%s has no parameter %q", op.ID, name)
		}
		vals, err := paramTexts(p.Name, v)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", name, err)
		}
		st.Params[request.Key(p)] = vals
	}
	if er.RequestBody != nil {
		body, err := bodyText(op, Plain(er.RequestBody))
		if err != nil {
			return nil, fmt.Errorf("encoding the request body: %w", err)
		}
		st.Body = body
	}
	req, errs := request.Build(op, x.Base, st)
	if len(errs) > 0 {
		var msgs []string
		for _, e := range errs {
			msgs = append(msgs, e.Error())
		}
		return nil, fmt.Errorf("the request for %s is not valid: %s", op.ID, strings.Join(msgs, "; "))
	}
	ex.Method, ex.URL = req.Method, req.URL
	hr, err := http.NewRequestWithContext(ctx, req.Method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return nil, err
	}
	for _, h := range req.ProxyHeaders() {
		hr.Header.Add(h.Name, h.Value)
	}
	start := time.Now()
	resp, err := withJar(x.Client).Do(hr)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	ex.Status, ex.Duration = resp.StatusCode, time.Since(start)
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	if len(raw) > maxBody {
		return nil, fmt.Errorf("the answer is larger than %d MiB", maxBody>>20)
	}
	return &arazzo.ExecutionResponse{
		StatusCode: resp.StatusCode,
		Headers:    resp.Header,
		Body:       decodeBody(resp.Header.Get("Content-Type"), raw),
		URL:        req.URL,
		Method:     req.Method,
	}, nil
}

// bodyText is a step's payload as the operation's form holds it (request.State.Body): a
// string as it is for a text, XML or binary body, anything else as JSON, which app/request
// encodes as the body's content type says (a form object as urlencoded or multipart fields).
func bodyText(op *catalog.Operation, payload any) (string, error) {
	if s, ok := payload.(string); ok && op.Body != nil {
		switch op.Body.Kind() {
		case catalog.BodyText, catalog.BodyXML, catalog.BodyBinary:
			return s, nil
		}
	}
	body, err := json.MarshalIndent(payload, "", "  ")
	return string(body), err
}

// paramTexts turns a parameter's value into the form's text values: one per item of a list.
// A value {fromLink: <url>} stands for the parameter's values in that link's query: how a
// walkthrough follows an API's next link (see the package documentation).
func paramTexts(name string, v any) ([]string, error) {
	v = Plain(v)
	m, ok := v.(map[string]any)
	if !ok {
		return texts(v), nil
	}
	link, ok := m[FromLink].(string)
	if !ok || len(m) != 1 {
		return nil, fmt.Errorf("an object value must be {%s: <url>}", FromLink)
	}
	u, err := url.Parse(link)
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", FromLink, link, err)
	}
	vals := u.Query()[name]
	if len(vals) == 0 {
		return nil, fmt.Errorf("%s %q has no %s in its query", FromLink, link, name)
	}
	return vals, nil
}

// FromLink is the key of a parameter value taken from a link's query (see paramTexts).
const FromLink = "fromLink"

func texts(v any) []string {
	if list, ok := v.([]any); ok {
		out := make([]string, 0, len(list))
		for _, item := range list {
			out = append(out, text(item))
		}
		return out
	}
	return []string{text(v)}
}

func text(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case nil:
		return ""
	case map[string]any:
		b, _ := json.Marshal(t)
		return string(b)
	}
	return fmt.Sprint(v)
}

// decodeBody is the answer as $response.body reads it (see HTTPExecutor).
func decodeBody(contentType string, raw []byte) any {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch {
	case mt == "text/event-stream":
		var p sse.Parser
		events := append(p.Feed(raw), p.Finish()...)
		out := make([]any, 0, len(events))
		for _, ev := range events {
			if ev.Data == "[DONE]" {
				continue
			}
			var v any
			if json.Unmarshal([]byte(ev.Data), &v) != nil {
				v = ev.Data
			}
			out = append(out, v)
		}
		return out
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		var v any
		if json.Unmarshal(raw, &v) == nil {
			return v
		}
	}
	return string(raw)
}

// Plain returns v with the YAML nodes the engine gives for objects and arrays (a step output
// such as $response.body#/choices/0/message/tool_calls) decoded into maps and slices.
func Plain(v any) any {
	switch t := v.(type) {
	case *yaml.Node:
		var out any
		if err := t.Decode(&out); err != nil {
			return t.Value
		}
		return Plain(out)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = Plain(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = Plain(e)
		}
		return out
	}
	return v
}
