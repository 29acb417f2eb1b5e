package all

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"loupe/app/catalog"
	"loupe/content"
	servercatalog "loupe/server/catalog"
)

func TestProxyAddsEachAPIsSandboxCredential(t *testing.T) {
	p, err := NewProxy(Options{Content: content.FS}, contentCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, method, target, body string
		want                       int
	}{
		{"entities takes the key query parameter", "GET", "/proxy/entities/v1/entities:search?query=paris&limit=1", "", 200},
		{"cluster takes the ApiKey header", "GET", "/proxy/cluster/_cluster/health", "", 200},
		{"reports takes access_token", "GET", "/proxy/reports/admin/reports/v1/activity/users/all/applications/calendar?maxResults=2", "", 200},
		{"script takes a bearer token", "GET", "/proxy/script/v1/projects/1qvD3r1OzRDGF_lHoS8HkAyJtK9gP3kVhDjK5xXzDgBm2bN3eRIqLkHzE/content", "", 200},
		{"pagination takes none", "GET", "/proxy/pagination/cursor/items/", "", 200},
		{"an unknown API is a 404", "GET", "/proxy/nope/x", "", 404},
		{"a path outside /proxy is a 404", "GET", "/sandbox/chat/v1/models", "", 404},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.target, strings.NewReader(tc.body))
			w := httptest.NewRecorder()
			p.ServeHTTP(w, r)
			if got := w.Code; got != tc.want {
				t.Errorf("got %d; want %d (%s)", got, tc.want, w.Body.String())
			}
		})
	}
}

func TestProxyResetRestoresTheSeed(t *testing.T) {
	p, err := NewProxy(Options{Content: content.FS}, contentCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	serve := func(method, target, body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		p.ServeHTTP(w, r)
		return w
	}
	w := serve("POST", "/proxy/script/v1/projects", `{"title":"reset me"}`)
	var created struct{ ScriptID string }
	if err := json.Unmarshal(w.Body.Bytes(), &created); w.Code != 200 || err != nil || created.ScriptID == "" {
		t.Fatalf("creating a project: got %d %s; want 200 with a scriptId", w.Code, w.Body.String())
	}
	get := "/proxy/script/v1/projects/" + created.ScriptID
	if got := serve("GET", get, "").Code; got != 200 {
		t.Fatalf("the created project: got %d; want 200", got)
	}
	if err := p.Reset("chat"); err != nil {
		t.Fatal(err)
	}
	if got := serve("GET", get, "").Code; got != 200 {
		t.Errorf("after Reset(chat), the script project: got %d; want 200 (kept)", got)
	}
	if err := p.Reset("script"); err != nil {
		t.Fatal(err)
	}
	if got := serve("GET", get, "").Code; got != 404 {
		t.Errorf("after Reset(script), the created project: got %d; want 404 (the seed again)", got)
	}
	if err := p.Reset("nope"); err == nil {
		t.Errorf("Reset(nope): got no error; want one")
	}
	if err := p.Reset(""); err != nil {
		t.Errorf("Reset(\"\"): %v", err)
	}
}

// TestProxyResetIsPerAPI: the in-browser module's Reset of one API restores that API's seed
// (the cluster's upgrade, the pagination inserts) and leaves the others' changes.
func TestProxyResetIsPerAPI(t *testing.T) {
	p, err := NewProxy(Options{Content: content.FS}, contentCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	serve := func(method, target, body string) string {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		p.ServeHTTP(w, r)
		return w.Body.String()
	}
	check := "/proxy/cluster/_plugins/_security/api/_upgrade_check"
	serve("POST", "/proxy/cluster/_plugins/_security/api/_upgrade_perform", "")
	serve("POST", "/proxy/pagination/items/", `{"name":"mine"}`)
	if got := serve("GET", check, ""); !strings.Contains(got, `"upgradeAvailable":false`) {
		t.Fatalf("after perform: got %s; want nothing to upgrade", got)
	}
	if err := p.Reset("pagination"); err != nil {
		t.Fatal(err)
	}
	if got := serve("GET", "/proxy/pagination/page-number/items/", ""); !strings.Contains(got, `"count":95`) {
		t.Errorf("after Reset(pagination): got %.80s; want the 95 seeded items", got)
	}
	if got := serve("GET", check, ""); !strings.Contains(got, `"upgradeAvailable":false`) {
		t.Errorf("after Reset(pagination), the cluster: got %s; want its upgrade kept", got)
	}
	if err := p.Reset("cluster"); err != nil {
		t.Fatal(err)
	}
	if got := serve("GET", check, ""); !strings.Contains(got, `"upgradeAvailable":true`) {
		t.Errorf("after Reset(cluster): got %s; want the upgrade available again", got)
	}
}

// contentCatalog returns the catalog of the built-in documents, compiled once for the package's
// tests, as the static explorer's catalog.json holds it.
func contentCatalog(t *testing.T) func(context.Context) (*catalog.Catalog, error) {
	t.Helper()
	builtOnce.Do(func() { built, builtErr = servercatalog.Load(content.FS) })
	if builtErr != nil {
		t.Fatal(builtErr)
	}
	return func(context.Context) (*catalog.Catalog, error) { return built, nil }
}

var (
	builtOnce sync.Once
	built     *catalog.Catalog
	builtErr  error
)

// TestProxyWithoutItsCatalog: a catalog that cannot be read is a 503 that says what failed and
// what to do, and the next request tries again.
func TestProxyWithoutItsCatalog(t *testing.T) {
	fail := true
	p, err := NewProxy(Options{Content: content.FS}, func(ctx context.Context) (*catalog.Catalog, error) {
		if fail {
			return nil, errors.New("fetching /catalog.json: the site answered 404")
		}
		return contentCatalog(t)(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
	get := func() *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		p.ServeHTTP(w, httptest.NewRequest("GET", "/proxy/entities/v1/entities:search?query=paris&limit=1", nil))
		return w
	}
	if w := get(); w.Code != 503 || !strings.Contains(w.Body.String(), "the site answered 404") || !strings.Contains(w.Body.String(), "reload the page") {
		t.Errorf("without the catalog: got %d %s; want 503 saying why and what to do", w.Code, w.Body.String())
	}
	fail = false
	if w := get(); w.Code != 200 {
		t.Errorf("once the catalog loads: got %d %s; want 200", w.Code, w.Body.String())
	}
}
