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
	"strings"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/server/walkthrough/flow"
)

// maxBody bounds the response body a step keeps, as the app's response panel does.
const maxBody = 32 << 20

// Executor sends a run's requests over HTTP, built by the app's own request builder
// (loupe/app/request: the same validation, escaping and encoding as the operation page's
// form).
type Executor struct {
	// Base returns where an API's requests go, such as "http://127.0.0.1:8080/proxy/chat"
	// (through Loupe's proxy, which adds the credential) or the API's own base URL. Required.
	Base func(api *catalog.API) string
	// Client sends the requests. Nil means, in Walk, a client with a cookie jar of the run's
	// own, so that every step of a run is one visitor (Loupe's sandboxes keep one state per
	// visitor, its loupe_sandbox cookie, and a step must see what the previous ones changed),
	// which does not follow redirects: a step judges the answer it got, a 302 included.
	Client *http.Client
}

// WithJar returns c, or a new client with a cookie jar that follows no redirect when c is nil.
func WithJar(c *http.Client) *http.Client {
	if c != nil {
		return c
	}
	jar, _ := cookiejar.New(nil) // never fails without options
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// Send sends a call and returns its answer; an answer that never came has status 0 and says
// why in Err.
func (x *Executor) Send(ctx context.Context, w *Walkthrough, call *flow.Call) *flow.Response {
	hr, err := BuildRequest(ctx, w, call, x.Base)
	if err != nil {
		return &flow.Response{Err: "the request could not be built: " + err.Error(), Method: call.Operation.Method}
	}
	resp, err := WithJar(x.Client).Do(hr)
	if err != nil {
		return &flow.Response{Err: err.Error(), URL: hr.URL.String(), Method: hr.Method}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	out := &flow.Response{Status: resp.StatusCode, Header: resp.Header, URL: hr.URL.String(), Method: hr.Method}
	switch {
	case err != nil:
		return &flow.Response{Err: "reading the answer: " + err.Error(), URL: out.URL, Method: out.Method}
	case len(raw) > maxBody:
		return &flow.Response{Err: fmt.Sprintf("the answer is larger than %d MiB", maxBody>>20), URL: out.URL, Method: out.Method}
	}
	out.Body = DecodeBody(resp.Header.Get("Content-Type"), raw)
	return out
}

// DecodeBody is an answer as $response.body reads it: a JSON body decoded, any other (an
// event stream, XML, HTML, text) as its text.
func DecodeBody(contentType string, raw []byte) any {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "application/json" || strings.HasSuffix(mt, "+json") {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			return v
		}
	}
	if len(raw) == 0 {
		return nil
	}
	return string(raw)
}

// BuildRequest builds a call's HTTP request: the operation's documented parameters and body
// through request.Build, then what the step sends that the operation does not document (a
// header, a query parameter or a cookie the walkthrough adds).
func BuildRequest(ctx context.Context, w *Walkthrough, call *flow.Call, base func(*catalog.API) string) (*http.Request, error) {
	api := w.APIs[call.Operation.Source]
	if api == nil {
		return nil, fmt.Errorf("source description %s is none of Loupe's APIs", call.Operation.Source)
	}
	op := api.Operation(call.Operation.ID)
	if op == nil {
		return nil, fmt.Errorf("%s has no operation %s", api.Title, call.Operation.ID)
	}
	st := request.State{Params: map[string][]string{}}
	var extra []flow.ParamValue
	for _, p := range call.Params {
		cp := findParam(op, p.Name, p.In)
		if cp == nil {
			extra = append(extra, p)
			continue
		}
		st.Params[request.Key(cp)] = texts(p.Value)
	}
	buildOp := op
	var raw []byte // a body the walkthrough wrote already encoded, and its type
	rawType := ""
	if call.Body != nil {
		ct := call.Body.ContentType
		if ct == "" && op.Body != nil {
			ct = op.Body.ContentType
		}
		// As the walkthrough page's form sends it (request.SentAs): the document's own
		// schema when it offers the type, else a body of that type alone.
		buildOp, st.BodyType = request.SentAs(op, call.Body.ContentType)
		sent := request.BodyOf(buildOp, st)
		s, isText := call.Body.Value.(string)
		if fields, ok := request.FormText(s); isText && ok && sent.Kind() == catalog.BodyURLEncoded {
			st.Body = fields // an encoded form: its fields, encoded again as the form does
		} else if isText && isForm(sent) && !strings.HasPrefix(strings.TrimSpace(s), "{") {
			raw, rawType = []byte(s), ct // a multipart body already encoded: sent as written
			c := *buildOp
			c.Body = nil
			buildOp = &c
		} else {
			text, err := bodyText(sent, call.Body.Value)
			if err != nil {
				return nil, fmt.Errorf("request body: %w", err)
			}
			st.Body = text
		}
	}
	req, errs := request.Build(buildOp, base(api), st)
	if len(errs) > 0 && onlyBody(errs) {
		// The document's payload is sent as it says, as other Arazzo runners send it (the
		// specification's own examples leave out fields a schema requires): its success
		// criteria judge the answer. Parameters are still checked.
		req, errs = request.Preview(buildOp, base(api), st), nil
	}
	if len(errs) > 0 {
		var msgs []string
		for _, e := range errs {
			msgs = append(msgs, e.Error())
		}
		return nil, fmt.Errorf("the request for %s is not valid: %s", op.ID, strings.Join(msgs, "; "))
	}
	u, err := url.Parse(req.URL)
	if err != nil {
		return nil, err
	}
	var body io.Reader
	switch {
	case raw != nil:
		body = bytes.NewReader(raw)
	case req.Body != nil:
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, u.String(), body)
	if err != nil {
		return nil, err
	}
	headers := req.Headers
	if strings.Contains(u.Path, "/proxy/") {
		headers = req.ProxyHeaders() // Loupe's proxy takes the operation's cookies apart from the caller's
	}
	for _, h := range headers {
		hr.Header.Add(h.Name, h.Value)
	}
	if raw != nil {
		hr.Header.Set("Content-Type", rawType)
	}
	q := hr.URL.Query()
	for _, p := range extra {
		switch p.In {
		case "query":
			for _, v := range texts(p.Value) {
				q.Add(p.Name, v)
			}
		case "querystring":
			hr.URL.RawQuery = strings.TrimPrefix(flow.Text(p.Value), "?")
			q = hr.URL.Query()
		case "header":
			hr.Header.Set(p.Name, flow.Text(p.Value))
		case "cookie":
			hr.AddCookie(&http.Cookie{Name: p.Name, Value: flow.Text(p.Value)})
		case "path":
			return nil, fmt.Errorf("%s has no path parameter %s", op.ID, p.Name)
		}
	}
	if len(extra) > 0 {
		hr.URL.RawQuery = q.Encode()
	}
	return hr, nil
}

// bodyText is a step's payload as the operation page's form holds it (request.State.Body),
// so that app/request encodes it exactly as the form would: a string as written, anything
// else as JSON (a form object's fields for a urlencoded or multipart body). This and
// request.Build are the one place a walkthrough's body is encoded.
func bodyText(b *catalog.RequestBody, payload any) (string, error) {
	if s, ok := payload.(string); ok {
		return s, nil // text, XML or bytes as written; JSON or a form's fields as JSON text
	}
	out, err := json.MarshalIndent(payload, "", "  ")
	return string(out), err
}

// onlyBody reports whether every error is about the request body.
func onlyBody(errs []request.FieldError) bool {
	for _, e := range errs {
		if e.Key != request.BodyKey {
			return false
		}
	}
	return true
}

// isForm reports whether a body is sent as form fields (urlencoded or multipart).
func isForm(b *catalog.RequestBody) bool {
	k := b.Kind()
	return k == catalog.BodyURLEncoded || k == catalog.BodyMultipart
}

// sameMediaType reports whether two content types name the same media type, parameters aside.
func sameMediaType(a, b string) bool {
	ma, _, _ := mime.ParseMediaType(a)
	mb, _, _ := mime.ParseMediaType(b)
	return ma != "" && strings.EqualFold(ma, mb)
}

// texts turns a value into the form's text values: one per item of a list.
func texts(v any) []string {
	if list, ok := v.([]any); ok {
		out := make([]string, 0, len(list))
		for _, item := range list {
			out = append(out, flow.Text(item))
		}
		return out
	}
	return []string{flow.Text(v)}
}

// findParam returns op's parameter with the given name and location, or nil; header names
// match without regard to case.
func findParam(op *catalog.Operation, name, in string) *catalog.Parameter {
	for i := range op.Parameters {
		p := &op.Parameters[i]
		if p.In == in && (p.Name == name || (in == "header" && strings.EqualFold(p.Name, name))) {
			return p
		}
	}
	return nil
}
