package proxy

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"

	"loupe/app/catalog"
)

// testCatalog documents a few operations of three APIs.
var testCatalog = &catalog.Catalog{APIs: []catalog.API{
	{Slug: "entities", Operations: []catalog.Operation{{ID: "search", Method: "GET", Path: "/v1/entities:search"}}},
	{Slug: "chat", Operations: []catalog.Operation{
		{ID: "createChatCompletion", Method: "POST", Path: "/v1/chat/completions"},
		{ID: "stream", Method: "GET", Path: "/v1/stream"},
		{ID: "redirect", Method: "GET", Path: "/v1/redirect"},
		{ID: "echo", Method: "GET", Path: "/v1/echo/{what}"},
	}},
	{Slug: "docs", Servers: []string{"https://readthedocs.org/api/v2"}, Operations: []catalog.Operation{
		{ID: "projectsList", Method: "GET", Path: "/project/"},
		{ID: "projectsRead", Method: "GET", Path: "/project/{id}/"},
		{ID: "projectsActiveVersions", Method: "GET", Path: "/project/{id}/active_versions/"},
	}},
	{Slug: "script", Operations: []catalog.Operation{
		{ID: "projectsGet", Method: "GET", Path: "/v1/projects/{scriptId}"},
		{ID: "projectsUpdateContent", Method: "PUT", Path: "/v1/projects/{scriptId}/content"},
		{ID: "scriptsRun", Method: "POST", Path: "/v1/scripts/{scriptId}:run"},
	}},
}}

// echoed is what the echo backend saw.
type echoed struct {
	Method string      `json:"method"`
	Host   string      `json:"host"`
	Path   string      `json:"path"`
	Raw    string      `json:"raw"`
	Query  string      `json:"query"`
	Header http.Header `json:"header"`
	Body   string      `json:"body"`
}

// backend is an upstream that echoes every request back as JSON (in the body and, to tempt
// the proxy, in headers), and counts requests.
type backend struct {
	*httptest.Server
	hits atomic.Int64
	mu   sync.Mutex
	last echoed
	// handle, when set, answers instead of the echo.
	handle func(w http.ResponseWriter, r *http.Request)
}

func newBackend(t *testing.T) *backend {
	b := &backend{}
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		e := echoed{Method: r.Method, Host: r.Host, Path: r.URL.Path, Raw: r.URL.EscapedPath(), Query: r.URL.RawQuery, Header: r.Header, Body: string(body)}
		b.mu.Lock()
		b.last = e
		h := b.handle
		b.mu.Unlock()
		if h != nil {
			h(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Echo-Authorization", r.Header.Get("Authorization"))
		w.Header().Set("X-Echo-Url", r.URL.String())
		w.Header().Set("Set-Cookie", "upstream=1")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		_ = json.NewEncoder(w).Encode(e)
	}))
	t.Cleanup(b.Close)
	return b
}

func (b *backend) seen() echoed {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last
}

func (b *backend) setHandler(h func(w http.ResponseWriter, r *http.Request)) {
	b.mu.Lock()
	b.handle = h
	b.mu.Unlock()
}

// The secrets of the test APIs.
const (
	entitiesKey = "ent-SECRET-0123456789"
	chatKey     = "chat-SECRET-abcdef"
	scriptKey   = "script-SECRET-xyz"
)

// testAPIs are three APIs on the backend, each with its credential placed as the seeds say.
func testAPIs(base string) map[string]*API {
	u := func(p string) *url.URL { v, _ := url.Parse(base + p); return v }
	return map[string]*API{
		"entities": {BaseURL: u("/base"), Secrets: []string{entitiesKey}, Apply: func(r *http.Request) {
			q := r.URL.Query()
			q.Set("key", entitiesKey)
			r.URL.RawQuery = q.Encode()
		}},
		"chat": {BaseURL: u("/chat"), Secrets: []string{chatKey}, Apply: func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+chatKey)
		}},
		"docs":   {BaseURL: u("/api/v2")},
		"script": {BaseURL: u(""), Secrets: []string{scriptKey}, AdminOnly: []string{"projectsUpdateContent"}, Apply: func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+scriptKey) }},
	}
}

// harness is a proxy in front of a backend, served like server.New mounts it: in front of the
// ServeMux, so the mux's path cleaning does not hide tricks from it.
type harness struct {
	*httptest.Server
	backend *backend
	proxy   *Proxy
	audit   *bytes.Buffer
	auditMu *sync.Mutex
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func newHarness(t *testing.T, edit func(*Config)) *harness {
	var e func(*Config, *backend)
	if edit != nil {
		e = func(c *Config, _ *backend) { edit(c) }
	}
	return newHarnessWith(t, e)
}

// newHarnessWith is newHarness for edits that need the backend.
func newHarnessWith(t *testing.T, edit func(*Config, *backend)) *harness {
	b := newBackend(t)
	h := &harness{backend: b, audit: &bytes.Buffer{}, auditMu: &sync.Mutex{}}
	cfg := Config{
		APIs:    testAPIs(b.URL),
		Catalog: testCatalog,
		Audit:   slog.New(slog.NewTextHandler(lockedWriter{h.auditMu, h.audit}, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if edit != nil {
		edit(&cfg, b)
	}
	h.proxy = New(cfg)
	mux := http.NewServeMux()
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot) // anything that is not the proxy
	}))
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if IsProxyRequest(r) {
			h.proxy.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *harness) auditLog() string {
	h.auditMu.Lock()
	defer h.auditMu.Unlock()
	return h.audit.String()
}

// do sends a request and returns the response with its body read.
func (h *harness) do(t *testing.T, method, path string, body io.Reader, header http.Header) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, h.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := h.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}
