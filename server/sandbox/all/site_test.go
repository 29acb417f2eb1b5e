package all

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/content"
	servercatalog "loupe/server/catalog"
)

// newSite is the site handler over the real content and catalog; loads counts the catalog's
// loads and fail makes them fail while it is set.
func newSite(t *testing.T, loads *int, fail *bool) http.Handler {
	t.Helper()
	p, err := NewProxy(Options{Content: content.FS}, contentCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	cat, _ := contentCatalog(t)(context.Background())
	return Site(SiteOptions{Proxy: p, Content: content.FS, Catalog: func(context.Context) (*catalog.Catalog, error) {
		*loads++
		if *fail {
			return nil, errors.New("the site answered 404")
		}
		return cat, nil
	}})
}

func serveJSON(h http.Handler, method, target string, body any) *httptest.ResponseRecorder {
	var b []byte
	switch v := body.(type) {
	case string:
		b = []byte(v)
	case nil:
	default:
		b, _ = json.Marshal(v)
	}
	w := httptest.NewRecorder()
	r := httptest.NewRequest(method, target, bytes.NewReader(b))
	r.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(w, r)
	return w
}

// walk runs a walkthrough over the site's run protocol at path, the way the runner page does
// in the static explorer: the service gives each request, it goes through the sandbox proxy,
// the service judges the answer. It returns the last answer and the steps judged.
func walk(t *testing.T, site http.Handler, cat *catalog.Catalog, path string, start catalog.WalkRunRequest) (catalog.WalkRunAnswer, []string) {
	t.Helper()
	var ans catalog.WalkRunAnswer
	w := serveJSON(site, "POST", path, start)
	var steps []string
	for i := 0; i < 10; i++ {
		ans = catalog.WalkRunAnswer{}
		if err := json.Unmarshal(w.Body.Bytes(), &ans); err != nil || w.Code != 200 || ans.Error != "" {
			t.Fatalf("got %d %s; want 200 with the run's next request", w.Code, w.Body.String())
		}
		for _, s := range ans.Steps {
			steps = append(steps, s.Step)
			for _, c := range s.Criteria {
				if c.Outcome != "passed" {
					t.Errorf("step %s: criterion %q: got %s (%s); want passed", s.Step, c.Condition, c.Outcome, c.Why)
				}
			}
		}
		if ans.Call == nil {
			return ans, steps
		}
		st := request.State{Params: map[string][]string{}, Body: ans.Call.Body}
		for _, p := range ans.Call.Params {
			st.Params[p.In+":"+p.Name] = p.Values
		}
		req, errs := request.Build(cat.API(ans.Call.API).Operation(ans.Call.OperationID), "/proxy/"+ans.Call.API, st)
		if len(errs) > 0 {
			t.Fatalf("step %s: building the request: %v", ans.Call.Step, errs)
		}
		res := serveJSON(site, req.Method, req.URL, nil)
		next := start
		next.Workflow, next.Inputs, next.State = "", nil, ans.State
		next.Response = &catalog.WalkResponse{Status: res.Code, ContentType: res.Header().Get("Content-Type"), Body: res.Body.String()}
		w = serveJSON(site, "POST", path, next)
	}
	t.Fatalf("the run did not end: %v", steps)
	return ans, steps
}

// TestSiteRunsAWalkthroughToItsEnd walks entities-search-then-lookup in the static explorer's
// sandbox module: the catalog loads once, on the first walkthrough request.
func TestSiteRunsAWalkthroughToItsEnd(t *testing.T) {
	var loads int
	var fail bool
	site := newSite(t, &loads, &fail)
	cat, _ := servercatalog.Load(content.FS)
	ans, steps := walk(t, site, cat, "/walkthroughs/entities-search-then-lookup/run", catalog.WalkRunRequest{Inputs: map[string]string{"query": "paris"}})
	if got, want := strings.Join(steps, ","), "search,lookup"; got != want || !ans.OK {
		t.Errorf("got steps %s (ok %v); want %s", got, ans.OK, want)
	}
	if got := string(ans.Outputs["name"]); !strings.Contains(got, "Paris") {
		t.Errorf("got the looked-up name %s; want Paris", got)
	}
	if loads != 1 {
		t.Errorf("got %d catalog loads; want 1 (once, on the first request)", loads)
	}
}

// TestSiteRunsWhatTheConfigurationAdded: a walkthrough the static site's catalog lists that is
// not built in (`loupe static -config`) loads from its document on the site, its source
// matched as the build matched it; a document the page carries, and a recording, are
// answered as the server answers them.
func TestSiteRunsWhatTheConfigurationAdded(t *testing.T) {
	p, err := NewProxy(Options{Content: content.FS}, contentCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	cat, _ := contentCatalog(t)(context.Background())
	own := *cat
	own.Walkthroughs = append(append([]catalog.Walkthrough(nil), cat.Walkthroughs...), catalog.Walkthrough{
		ID: "find-paris", API: "entities", Document: "/arazzo/find-paris.arazzo.yaml", Sources: map[string]string{"kg": "entities"}})
	var fetched []string
	site := Site(SiteOptions{Proxy: p, Content: content.FS,
		Catalog: func(context.Context) (*catalog.Catalog, error) { return &own, nil },
		Document: func(_ context.Context, path string) ([]byte, error) {
			fetched = append(fetched, path)
			return []byte(findParis), nil
		}})
	ans, steps := walk(t, site, cat, "/walkthroughs/find-paris/run", catalog.WalkRunRequest{})
	if !ans.OK || strings.Join(steps, ",") != "search" || strings.Join(fetched, ",") != "/arazzo/find-paris.arazzo.yaml" {
		t.Errorf("got ok %v, steps %v, fetched %v; want the configured walkthrough run from its document", ans.OK, steps, fetched)
	}
	ans, steps = walk(t, site, cat, "/walkthroughs/run", catalog.WalkRunRequest{Document: strings.ReplaceAll(findParis, `"kg"`, `"entities"`), Name: "mine.arazzo.json"})
	if !ans.OK || strings.Join(steps, ",") != "search" {
		t.Errorf("a document the page carries: got ok %v, steps %v; want it run", ans.OK, steps)
	}
	w := serveJSON(site, "POST", "/walkthroughs/record", catalog.WalkRecordRequest{Origin: "https://x.github.io/site", Exchanges: []catalog.WalkExchange{
		{API: "entities", OperationID: "entities.search", URL: "/proxy/entities/v1/entities:search?query=paris", Status: 200}}})
	var rec catalog.WalkRecordAnswer
	if err := json.Unmarshal(w.Body.Bytes(), &rec); err != nil || rec.Error != "" || rec.Walkthrough == nil ||
		!strings.Contains(rec.Document, "url: https://x.github.io/site/openapi/entities.yaml") {
		t.Errorf("a recording: got %s; want a document naming the site's OpenAPI document", w.Body.String())
	}
}

// findParis is a walkthrough of the configuration: its source is named after no API.
const findParis = `{"arazzo": "1.0.1", "info": {"title": "Find Paris", "version": "1"},
 "sourceDescriptions": [{"name": "kg", "url": "./kg.yaml", "type": "openapi"}],
 "workflows": [{"workflowId": "find", "steps": [{"stepId": "search", "operationId": "entities.search",
  "parameters": [{"name": "query", "in": "query", "value": "paris"}], "successCriteria": [{"condition": "$statusCode == 200"}]}]}]}`

func TestSiteLoadsTheWalkthroughsLazilyAndRetries(t *testing.T) {
	var loads int
	fail := true
	site := newSite(t, &loads, &fail)
	if w := serveJSON(site, "POST", "/tools/script/syntax", `{"name":"Code","source":"function f( {"}`); w.Code != 200 || loads != 0 {
		t.Fatalf("the syntax check: got %d with %d catalog loads; want 200 with none", w.Code, loads)
	}
	start := catalog.WalkRunRequest{Inputs: map[string]string{"query": "paris"}}
	w := serveJSON(site, "POST", "/walkthroughs/entities-search-then-lookup/run", start)
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "could not load") {
		t.Errorf("a failed load: got %d %s; want 503 saying the walkthroughs could not load", w.Code, w.Body.String())
	}
	fail = false
	if w := serveJSON(site, "POST", "/walkthroughs/entities-search-then-lookup/run", start); w.Code != 200 {
		t.Errorf("after a failed load: got %d %s; want 200", w.Code, w.Body.String())
	}
	serveJSON(site, "POST", "/walkthroughs/entities-search-then-lookup/run", start)
	if loads != 2 {
		t.Errorf("got %d catalog loads; want 2 (the failed one, then one that is kept)", loads)
	}
}

func TestSiteAnswersWhatTheServerAnswers(t *testing.T) {
	var loads int
	var fail bool
	site := newSite(t, &loads, &fail)
	for _, tc := range []struct {
		name, method, target string
		body                 any
		want                 int
		wantBody             string
	}{
		{"a syntax error is found at its line", "POST", "/tools/script/syntax", `{"name":"Code","source":"var a = 1;\nfunction f( {"}`, 200, `"line":2`},
		{"a good file parses", "POST", "/tools/script/syntax", `{"name":"Code","source":"function f() {}"}`, 200, `"problem":null`},
		{"the syntax check takes POST only", "GET", "/tools/script/syntax", nil, 405, "POST"},
		{"an unknown walkthrough names the known ones", "POST", "/walkthroughs/nope/run", `{}`, 404, "entities-search-then-lookup"},
		{"a run request that is not JSON", "POST", "/walkthroughs/entities-search-then-lookup/run", `{`, 400, "not valid JSON"},
		{"a run is posted, not got", "GET", "/walkthroughs/entities-search-then-lookup/run", nil, 404, "POST /walkthroughs/<id>/run"},
		{"a document that is no Arazzo is refused at its line", "POST", "/walkthroughs/check", `{"document":"openapi: 3.1.0\n"}`, 200, `"line":1`},
		{"the retired step protocol is not answered", "POST", "/walkthroughs/entities-search-then-lookup/step", `{"step":"search"}`, 404, "POST /walkthroughs/<id>/run"},
		{"the proxy answers as before", "GET", "/proxy/cluster/_cluster/health", nil, 200, "status"},
		{"anything else is a 404 that says what is answered", "GET", "/catalog.json", nil, 404, "/proxy/<api>/<path>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := serveJSON(site, tc.method, tc.target, tc.body)
			if w.Code != tc.want || !strings.Contains(w.Body.String(), tc.wantBody) {
				t.Errorf("got %d %s; want %d with %q", w.Code, w.Body.String(), tc.want, tc.wantBody)
			}
		})
	}
}
