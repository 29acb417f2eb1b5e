package server

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/server/config"
	"loupe/server/config/placement"
)

// seen is what a stub upstream received.
type seen struct {
	method, path, query string
	header              http.Header
}

// stubUpstream answers every call with {"ok":true} and reports what it received.
func stubUpstream(t *testing.T) (*httptest.Server, chan seen) {
	t.Helper()
	got := make(chan seen, 8)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone()}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(up.Close)
	return up, got
}

// ownServer starts Loupe with a configuration file's text.
func ownServer(t *testing.T, yaml string) *httptest.Server {
	t.Helper()
	settings, err := config.Parse([]byte(yaml), "loupe.yaml", func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Settings: settings, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts
}

// TestOwnAPIs adds a third-party OpenAPI 3.0 document (YAML, an API key in a header) and a 3.1
// one (JSON, a bearer token) by configuration: the catalog has their forms, a call through the
// proxy reaches the stub upstream with the credential sent as the document's scheme says, an
// undocumented path is refused, and the documents are exported.
func TestOwnAPIs(t *testing.T) {
	pets, petsSeen := stubUpstream(t)
	notes, notesSeen := stubUpstream(t)
	ts := ownServer(t, `
apis:
  pets:
    openapi: testdata/petstore-3.0.yaml
    base_url: `+pets.URL+`/v1
    credential: {value: store-key-1}
  notes:
    openapi: testdata/notes-3.1.json
    base_url: `+notes.URL+`/api
    credential: {value: note-token}
`)
	var cat catalog.Catalog
	getJSON(t, ts.URL+"/catalog.json", &cat)
	p, n := cat.API("pets"), cat.API("notes")
	if p == nil || n == nil {
		t.Fatalf("catalog: got pets %v, notes %v; want both", p != nil, n != nil)
	}
	if got, want := cat.APIs[len(cat.APIs)-2].Slug+","+cat.APIs[len(cat.APIs)-1].Slug, "notes,pets"; got != want {
		t.Errorf("order: got %s last; want %s after the built-in APIs", got, want)
	}
	tests := []struct {
		api, op, method, path string
		params                []string // in:name
	}{
		{"pets", "listPets", "GET", "/pets", []string{"query:limit", "query:species"}},
		{"pets", "createPet", "POST", "/pets", nil},
		{"pets", "get-pets-petId", "GET", "/pets/{petId}", []string{"path:petId"}}, // no operationId in the document
		{"notes", "listNotes", "GET", "/notes", []string{"query:q", "query:pinned"}},
		{"notes", "deleteNote", "DELETE", "/notes/{id}", []string{"path:id"}},
	}
	for _, tt := range tests {
		op := cat.API(tt.api).Operation(tt.op)
		if op == nil {
			t.Errorf("%s: no operation %s", tt.api, tt.op)
			continue
		}
		var params []string
		for _, p := range op.Parameters {
			params = append(params, p.In+":"+p.Name)
		}
		if got, want := op.Method+" "+op.Path+" "+strings.Join(params, ","), tt.method+" "+tt.path+" "+strings.Join(tt.params, ","); got != want {
			t.Errorf("%s/%s: got %s; want %s", tt.api, tt.op, got, want)
		}
	}
	if op := p.Operation("createPet"); op == nil || op.Body == nil || string(op.Body.Example) != `{"name":"Rex","species":"dog"}` {
		t.Errorf("createPet body: got %+v; want the document's example", op)
	}
	if lim := p.Operation("listPets").Parameters[0].Schema; lim.Type != "integer" || lim.Maximum == nil || *lim.Maximum != 100 {
		t.Errorf("limit schema: got %+v; want an integer up to 100", lim)
	}

	// Send: the credential goes as each document's security scheme says.
	resp := do(t, "GET", ts.URL+"/proxy/pets/pets?limit=2&species=cat", "")
	if resp.StatusCode != 200 {
		t.Fatalf("pets: got %d; want 200", resp.StatusCode)
	}
	got := <-petsSeen
	if got.path != "/v1/pets" || got.query != "limit=2&species=cat" || got.header.Get("X-Store-Key") != "store-key-1" || got.header.Get("Authorization") != "" {
		t.Errorf("pets upstream: got %s %s?%s X-Store-Key %q Authorization %q; want /v1/pets?limit=2&species=cat with X-Store-Key store-key-1",
			got.method, got.path, got.query, got.header.Get("X-Store-Key"), got.header.Get("Authorization"))
	}
	resp = do(t, "DELETE", ts.URL+"/proxy/notes/notes/7", "")
	if resp.StatusCode != 200 {
		t.Fatalf("notes: got %d; want 200", resp.StatusCode)
	}
	got = <-notesSeen
	if got.method != "DELETE" || got.path != "/api/notes/7" || got.header.Get("Authorization") != "Bearer note-token" {
		t.Errorf("notes upstream: got %s %s Authorization %q; want DELETE /api/notes/7 with Bearer note-token", got.method, got.path, got.header.Get("Authorization"))
	}

	// An undocumented path or method is refused before it leaves.
	for _, call := range [][2]string{{"GET", "/proxy/pets/admin/users"}, {"DELETE", "/proxy/pets/pets"}} {
		resp := do(t, call[0], ts.URL+call[1], "")
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(resp.body, "is not a documented operation") {
			t.Errorf("%s %s: got %d %s; want 403 not a documented operation", call[0], call[1], resp.StatusCode, resp.body)
		}
	}
	select {
	case s := <-petsSeen:
		t.Errorf("an undocumented call reached the upstream: %s %s", s.method, s.path)
	default:
	}

	// The documents are exported as written.
	doc, _ := os.ReadFile("testdata/notes-3.1.json")
	if resp := do(t, "GET", ts.URL+"/openapi/notes.yaml", ""); resp.StatusCode != 200 || resp.body != string(doc) {
		t.Errorf("/openapi/notes.yaml: got %d, %d bytes; want 200 and the document", resp.StatusCode, len(resp.body))
	}
}

// TestOwnAPIWithoutBaseURL: an API of your own whose sandbox is turned off and that has no
// base URL goes nowhere, so Send says what to set.
func TestOwnAPIWithoutBaseURL(t *testing.T) {
	ts := ownServer(t, "apis:\n  pets:\n    openapi: testdata/petstore-3.0.yaml\n    sandbox: false\n")
	resp := do(t, "GET", ts.URL+"/proxy/pets/pets", "")
	want := "pets has no base URL: apis.pets.sandbox is false, so its calls go nowhere; set apis.pets.base_url (or LOUPE_PETS_URL) to where its calls should go, or remove sandbox: false to use the sandbox built from its document, such as its document's server https://petstore.example.com/v1"
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(resp.body, want) {
		t.Errorf("got %d %s; want 503 saying %q", resp.StatusCode, resp.body, want)
	}
}

// TestOwnAPIErrors: a document that cannot be used stops the start with the key to fix.
func TestOwnAPIErrors(t *testing.T) {
	dir := t.TempDir()
	cookie := schemeDocument(t, dir, "{type: apiKey, in: cookie, name: sid}")
	tests := []struct{ name, yaml, want string }{
		{"unparsable", "apis:\n  broken:\n    openapi: testdata/broken.yaml\n", "apis.broken.openapi: testdata/broken.yaml"},
		{"cookie value", "apis:\n  c:\n    openapi: " + cookie + "\n    base_url: https://c.example\n    credential: {value: 'a;b'}\n",
			"apis.c.credential: the document sends the key as cookie sid, whose value cannot hold a space, comma, semicolon, quote or backslash"},
		{"no credential", "apis:\n  pets:\n    openapi: testdata/petstore-3.0.yaml\n    base_url: https://p.example\n",
			"apis.pets.credential: the API at https://p.example is sent a credential (header X-Store-Key, as its document says) but none is given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			settings, err := config.Parse([]byte(tt.yaml), "loupe.yaml", func(string) (string, bool) { return "", false })
			if err == nil {
				var srv *Server
				if srv, err = New(Config{Settings: settings, Logger: quietLogger()}); err == nil {
					srv.Close()
				}
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v; want an error containing %q", err, tt.want)
			}
		})
	}
}

// schemeDocument writes a one-operation OpenAPI 3.0 document (GET /a) whose security scheme
// is the YAML flow mapping scheme, and returns its path.
func schemeDocument(t *testing.T, dir, scheme string) string {
	t.Helper()
	f, err := os.CreateTemp(dir, "scheme-*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, "openapi: 3.0.3\ninfo: {title: Scheme, version: '1'}\nsecurity: [{c: []}]\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses: {'200': {description: ok}}\ncomponents:\n  securitySchemes:\n    c: %s\n", scheme)
	return f.Name()
}

// TestOwnAPISchemes: the credential of an API of your own goes upstream as its document's
// security scheme says, for each kind of scheme the proxy can send, and the browser's own
// credentials never go with it.
func TestOwnAPISchemes(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		scheme, secret string
		want           func(seen) string // what the upstream got, in the form of wantText
		wantText       string
	}{
		{"{type: apiKey, in: header, name: X-Key}", "k1", func(s seen) string { return s.header.Get("X-Key") }, "k1"},
		{"{type: apiKey, in: query, name: api_key}", "k2", func(s seen) string { return s.query }, "api_key=k2"},
		{"{type: apiKey, in: cookie, name: sid}", "k3", func(s seen) string { return strings.Join(s.header.Values("Cookie"), "|") }, "sid=k3"},
		{"{type: http, scheme: bearer}", "k4", func(s seen) string { return s.header.Get("Authorization") }, "Bearer k4"},
		{"{type: http, scheme: basic}", "ann:pw", func(s seen) string { return s.header.Get("Authorization") }, "Basic YW5uOnB3"},
	}
	for _, tt := range tests {
		t.Run(tt.scheme, func(t *testing.T) {
			up, got := stubUpstream(t)
			ts := ownServer(t, "apis:\n  own:\n    openapi: "+schemeDocument(t, dir, tt.scheme)+"\n    base_url: "+up.URL+"\n    credential: {value: '"+tt.secret+"'}\n")
			req, _ := http.NewRequest("GET", ts.URL+"/proxy/own/a", nil)
			req.Header.Set("Cookie", "browser=1")
			req.Header.Set("Authorization", "Bearer from-the-browser")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("got %d; want 200", resp.StatusCode)
			}
			s := <-got
			if v := tt.want(s); v != tt.wantText {
				t.Errorf("upstream got %q; want %q", v, tt.wantText)
			}
			if c := s.header.Get("Cookie"); strings.Contains(c, "browser") {
				t.Errorf("upstream got the browser's cookie %q", c)
			}
			if a := s.header.Get("Authorization"); strings.Contains(a, "from-the-browser") {
				t.Errorf("upstream got the browser's Authorization %q", a)
			}
		})
	}
}

// TestBuiltInPlacement: each built-in API's credential goes where its document says.
func TestBuiltInPlacement(t *testing.T) {
	srv, err := New(Config{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	tests := []struct{ slug, send, name, prefix string }{
		{"chat", "bearer", "", ""},
		{"script", "bearer", "", ""},
		{"entities", "query", "key", ""},
		{"reports", "query", "access_token", ""},
		{"cluster", "header", "Authorization", "ApiKey "},
		{"docs", "none", "", ""},
		{"pagination", "none", "", ""},
	}
	for _, tt := range tests {
		send, name, prefix, err := placement.Of(srv.catalog.API(tt.slug))
		if err != nil || send != tt.send || name != tt.name || prefix != tt.prefix {
			t.Errorf("%s: got %q %q %q %v; want %q %q %q", tt.slug, send, name, prefix, err, tt.send, tt.name, tt.prefix)
		}
	}
}

type answer struct {
	*http.Response
	body string
}

func do(t *testing.T, method, url, body string) answer {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp, string(b)}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp := do(t, "GET", url, "")
	if err := json.Unmarshal([]byte(resp.body), v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
}

func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
