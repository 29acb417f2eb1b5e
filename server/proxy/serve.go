package proxy

import (
	"context"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"
)

// call is one proxied call. It is the context of the request ServeHTTP hands to
// ReverseProxy, which carries it to the hooks (callFrom): a context of its own, cancelled when
// ServeHTTP returns or the upstream times out (timeoutTransport), inside the client's.
type call struct {
	context.Context
	cancel context.CancelCauseFunc
	client context.Context // the client's request context: done when the client went away

	up   *upstream
	rec  *recorder // &recv
	recv recorder
	// idle and body are the upstream body's wrappers (timeoutTransport, modifyResponse), in
	// the call's own allocation: a call has one upstream request and one response.
	idle    idleBody
	body    trailerBody
	user    string
	op      string // operationId; "" when undocumented
	rest    string // decoded path after /proxy/<slug>, "" or starting with "/"
	rawRest string // the same, as sent
	reason  string // why the call failed, for the audit line; never an error's text
	// inErr is why reading the client's request body failed, if it did (set by inBody).
	inErr error
	// carry is true when the caller asked for an upstream 408 to be carried (carry.go).
	carry bool
	// apply adds the user's own credential (API.Authorize); nil sends the API's.
	apply func(*http.Request)
	// deferred: the path holds an encoded slash or a semicolon for checkOperation to place.
	deferred bool
	// decode: the operation's documented Accept-Encoding went upstream, so a compressed
	// answer is decoded before it is masked (see decodeResponse).
	decode bool
}

// inBody is the client's request body; it remembers why a read failed, so that a client that
// hangs up in the middle of its upload is told from an upstream failure.
type inBody struct {
	io.ReadCloser
	c *call
}

func (b *inBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.c.inErr == nil {
		b.c.inErr = err
	}
	return n, err
}

type callKey struct{}

// Value implements context.Context: the call itself under callKey.
func (c *call) Value(key any) any {
	if key == (callKey{}) {
		return c
	}
	return c.Context.Value(key)
}

func callFrom(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// ServeHTTP implements http.Handler for /proxy/<slug>/<path>.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	c := &call{recv: recorder{ResponseWriter: w}} // one allocation for both
	rec := &c.recv
	c.rec = rec
	defer func() {
		v := recover()
		if v == http.ErrAbortHandler && c.up != nil && !rec.isCommitted() {
			// The upstream's body failed before anything reached the client: answer that,
			// rather than drop a connection that has not even had a status.
			p.answerLateFailure(rec, r, c)
			v = nil
		}
		if v == http.ErrAbortHandler {
			// What was written may still sit in the server's buffer: send it, so the client
			// sees the status and a body cut short rather than no answer at all.
			rec.flushOnAbort()
		}
		if v != nil {
			c.reason = "aborted"
		}
		rec.finish(v != nil)
		p.audit(r, c, rec, start)
		if v != nil {
			panic(v)
		}
	}()

	// Who is calling comes first, so that the audit line of a refused call names them too.
	admin := true
	c.user = "local"
	if p.cfg.User != nil {
		c.user, admin = p.cfg.User(r)
	}
	slug, rawRest, ref := splitTarget(r)
	if ref != nil {
		p.refuse(rec, c, ref)
		return
	}
	up := (*p.apis.Load())[slug]
	if up == nil {
		p.refuse(rec, c, &refusal{http.StatusNotFound, "unknown API " + quote(slug), "the APIs are: " + strings.Join(p.slugs(), ", ")})
		return
	}
	c.up = up
	ref, deferred := checkPath(rawRest)
	if ref != nil {
		p.refuse(rec, c, ref)
		return
	}
	c.deferred = deferred
	c.rawRest = rawRest
	c.rest = rawRest
	if strings.IndexByte(rawRest, '%') >= 0 {
		c.rest, _ = url.PathUnescape(rawRest) // checkPath accepted only valid escapes
	}
	if ref := checkQuery(r.URL.RawQuery); ref != nil {
		p.refuse(rec, c, ref)
		return
	}
	if ref := checkHeaders(r.Header); ref != nil {
		p.refuse(rec, c, ref)
		return
	}
	if ref := checkFetchMetadata(r.Header); ref != nil {
		p.refuse(rec, c, ref)
		return
	}
	if ref := p.checkOrigin(r); ref != nil {
		p.refuse(rec, c, ref)
		return
	}
	if ref := p.checkRate(rec, r, c.user); ref != nil {
		p.refuse(rec, c, ref)
		return
	}
	if ref := p.checkOperation(c, r, admin); ref != nil {
		p.refuse(rec, c, ref)
		return
	}
	if up.BaseURL == nil {
		p.refuse(rec, c, &refusal{http.StatusServiceUnavailable, up.slug + " has no base URL: " + up.Unset, "apis." + up.slug + ".base_url in the configuration"})
		return
	}
	if auth, listed := up.OperationAuth[c.op]; listed && c.op != "" && auth.Missing != "" {
		p.refuse(rec, c, &refusal{http.StatusUnauthorized, up.slug + ": " + auth.Missing, "apis." + up.slug + ".credentials in the configuration"})
		return
	}
	if r.ContentLength > p.cfg.MaxBody {
		p.refuse(rec, c, tooLarge(up.slug, p.cfg.MaxBody))
		return
	}
	if ref := p.authorize(r.Context(), c); ref != nil {
		p.refuse(rec, c, ref)
		return
	}
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = &inBody{http.MaxBytesReader(rec, r.Body, p.cfg.MaxBody), c}
	}
	c.carry = first(r.Header, CarryStatusHeader) != ""
	c.client = r.Context()
	c.Context, c.cancel = context.WithCancelCause(c.client)
	defer c.cancel(nil)
	p.rp.ServeHTTP(rec, r.WithContext(c))
}

// checkOperation names the call's operation, places the values checkPath left open in its
// path template's parameters, and applies the API's allow list, admin policy and the
// operation's security.
func (p *Proxy) checkOperation(c *call, r *http.Request, admin bool) *refusal {
	up := c.up
	method := r.Method
	m, ok := up.ops.match(method, up.basePth, c.rawRest, r.URL.RawQuery, r.Header)
	id := m.id
	c.op = id
	switch {
	case c.deferred && !ok:
		return bad("the path has an encoded slash or a semicolon outside a documented parameter")
	case c.deferred:
		if ref := checkValues(m); ref != nil {
			return ref
		}
	}
	switch {
	case !ok && !up.AllowUndocumented:
		return &refusal{http.StatusForbidden, up.slug + ": " + method + " " + orRoot(c.rest) + " is not a documented operation",
			"the operations of " + up.slug + " in its OpenAPI document, or set apis." + up.slug + ".allow_undocumented"}
	case ok && up.sbOnly[id] && !up.Sandbox && up.BaseURL != nil:
		return &refusal{http.StatusForbidden, up.slug + ": operation " + id + " exists only in Loupe's built-in sandbox, and " + up.slug + " goes to " + up.BaseURL.Host,
			"the real API's own operations, or leave apis." + up.slug + ".base_url empty to use the sandbox"}
	case ok && up.allow != nil && !up.allow[id]:
		return &refusal{http.StatusForbidden, up.slug + ": operation " + id + " is not allowed here",
			"apis." + up.slug + ".allow in the configuration"}
	case ok && up.admin[id] && !admin:
		return &refusal{http.StatusForbidden, up.slug + ": operation " + id + " is kept to admins",
			"ask an admin (server.access.admins), or apis." + up.slug + ".admin_only in the configuration"}
	}
	return nil
}

// rewrite builds the upstream request: the API's base URL and the call's path, the browser's
// credentials dropped and the server's added.
func (p *Proxy) rewrite(pr *httputil.ProxyRequest) {
	c := callFrom(pr.In.Context())
	up := c.up
	out := pr.Out
	base := up.BaseURL
	out.URL.Scheme = base.Scheme
	out.URL.Host = base.Host
	out.URL.User = nil
	out.URL.Path = up.basePth + c.rest
	out.URL.RawPath = trimSlash(base.EscapedPath()) + c.rawRest
	out.Host = base.Host

	if pr.In.URL.RawQuery != "" {
		out.URL.RawQuery = dropParams(out.URL.RawQuery, up.credentialParams)
	}
	// The header names below are canonical: the map is read and written directly, without
	// Header's canonicalizing of each name on each call.
	h := out.Header
	var cookies, acceptEncoding, clientEncoding []string
	for name, v := range h { // one pass: the headers Loupe reads, and those never sent
		switch name {
		case CookieHeader:
			cookies = v
			delete(h, name)
			continue
		case AcceptEncodingHeader:
			acceptEncoding = v
			delete(h, name)
			continue
		case "Accept-Encoding":
			clientEncoding = v // a client that can send it
		}
		if droppedRequest[name] {
			delete(h, name)
		}
	}
	if len(acceptEncoding) == 0 {
		acceptEncoding = clientEncoding
	}
	if len(cookies) > 0 {
		// The operation's cookie parameters, which a browser cannot send as Cookie.
		h["Cookie"] = []string{strings.Join(cookies, "; ")}
	}
	if len(acceptEncoding) > 0 && up.ops.documentsHeader(c.op, "Accept-Encoding") {
		// The operation documents it: it goes upstream, and the answer is decoded here.
		h["Accept-Encoding"] = acceptEncoding
		c.decode = true
	}
	for _, name := range p.strip {
		delete(h, name)
	}
	for _, name := range up.credentialHeaders {
		delete(h, name)
	}
	if _, ok := h["User-Agent"]; !ok {
		h.Set("User-Agent", "") // no Go-http-client default either
	}
	if up.Forwarded {
		p.setForwarded(h, pr.In, up)
	}
	if apply := c.credential(); apply != nil {
		apply(out)
	}
}

// setForwarded tells the upstream the public address of its mount point, /proxy/<slug>. The
// three values share one allocation; the names are canonical.
func (p *Proxy) setForwarded(h http.Header, in *http.Request, up *upstream) {
	scheme, host, prefix := "http", "", up.forwardedPrefix
	if u := p.cfg.PublicURL; u != nil {
		scheme, host = u.Scheme, u.Host
	} else {
		host = OwnHost(in)
		if in.TLS != nil {
			scheme = "https"
		}
	}
	v := []string{scheme, host, prefix}
	h["X-Forwarded-Proto"] = v[0:1:1]
	h["X-Forwarded-Host"] = v[1:2:2]
	h["X-Forwarded-Prefix"] = v[2:3:3]
}

// droppedRequestHeaders never go upstream: credentials the browser may send, and what would
// tell the upstream about the browser's page.
var droppedRequestHeaders = []string{
	"Authorization", "Proxy-Authorization", "Cookie", "X-Api-Key", "X-Goog-Api-Key",
	"Origin", "Referer", "Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest", "Sec-Fetch-User",
	"X-Real-Ip", "Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto",
	CarryStatusHeader, // Loupe's own, for the proxy (carry.go)
	// Without Accept-Encoding, the Transport asks for gzip and decodes it, so the masker sees
	// the response as text.
	"Accept-Encoding",
}

var droppedRequest = set(droppedRequestHeaders)

func (p *Proxy) slugs() []string {
	t := *p.apis.Load()
	out := make([]string, 0, len(t))
	for s := range t {
		out = append(out, s)
	}
	sortStrings(out)
	return out
}

func orRoot(s string) string {
	if s == "" {
		return "/"
	}
	return s
}
