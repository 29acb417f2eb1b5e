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

// TestSiteRunsAWalkthroughToItsEnd walks entities-search-then-lookup the way the runner page
// does in the static explorer: the step handler gives each step's request, it goes through the
// sandbox proxy, the step handler judges the answer.
func TestSiteRunsAWalkthroughToItsEnd(t *testing.T) {
	var loads int
	var fail bool
	site := newSite(t, &loads, &fail)
	cat, _ := servercatalog.Load(content.FS)
	api := cat.API("entities")
	op := api.Operation("entities.search")
	const id = "entities-search-then-lookup"
	outputs := map[string]map[string]json.RawMessage{}
	inputs := map[string]string{"query": "paris"}
	var steps []string
	for step := "search"; step != "" && len(steps) < 5; {
		steps = append(steps, step)
		w := serveJSON(site, "POST", "/walkthroughs/"+id+"/step", catalog.WalkStepRequest{Step: step, Inputs: inputs, Outputs: outputs})
		var ans catalog.WalkStepAnswer
		if err := json.Unmarshal(w.Body.Bytes(), &ans); err != nil || w.Code != 200 || ans.Error != "" {
			t.Fatalf("step %s: got %d %s; want 200 with the step's request", step, w.Code, w.Body.String())
		}
		st := request.State{Params: map[string][]string{}, Body: ans.Body}
		for _, p := range ans.Params {
			st.Params[p.In+":"+p.Name] = p.Values
		}
		req, errs := request.Build(op, "/proxy/entities", st)
		if len(errs) > 0 {
			t.Fatalf("step %s: building the request: %v", step, errs)
		}
		res := serveJSON(site, req.Method, req.URL, nil)
		w = serveJSON(site, "POST", "/walkthroughs/"+id+"/step", catalog.WalkStepRequest{Step: step, Inputs: inputs, Outputs: outputs,
			Response: &catalog.WalkResponse{Status: res.Code, ContentType: res.Header().Get("Content-Type"), Body: res.Body.String()}})
		ans = catalog.WalkStepAnswer{}
		if err := json.Unmarshal(w.Body.Bytes(), &ans); err != nil || !ans.OK {
			t.Fatalf("step %s: got %s; want every criterion to hold", step, w.Body.String())
		}
		for _, c := range ans.Criteria {
			if c.Outcome != "passed" {
				t.Errorf("step %s: criterion %q: got %s; want passed", step, c.Condition, c.Outcome)
			}
		}
		outputs[step] = ans.Outputs
		step = ans.Next
	}
	if got, want := strings.Join(steps, ","), "search,lookup"; got != want {
		t.Errorf("got steps %s; want %s", got, want)
	}
	if got := string(outputs["lookup"]["name"]); got != string(outputs["search"]["name"]) || got == "" {
		t.Errorf("got the looked-up name %s; want the searched one %s", got, outputs["search"]["name"])
	}
	if loads != 1 {
		t.Errorf("got %d catalog loads; want 1 (once, on the first step)", loads)
	}
}

func TestSiteLoadsTheWalkthroughsLazilyAndRetries(t *testing.T) {
	var loads int
	fail := true
	site := newSite(t, &loads, &fail)
	if w := serveJSON(site, "POST", "/tools/script/syntax", `{"name":"Code","source":"function f( {"}`); w.Code != 200 || loads != 0 {
		t.Fatalf("the syntax check: got %d with %d catalog loads; want 200 with none", w.Code, loads)
	}
	step := catalog.WalkStepRequest{Step: "search", Inputs: map[string]string{"query": "paris"}}
	w := serveJSON(site, "POST", "/walkthroughs/entities-search-then-lookup/step", step)
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "could not load in this browser") {
		t.Errorf("a failed load: got %d %s; want 503 saying the walkthroughs could not load", w.Code, w.Body.String())
	}
	fail = false
	if w := serveJSON(site, "POST", "/walkthroughs/entities-search-then-lookup/step", step); w.Code != 200 {
		t.Errorf("after a failed load: got %d %s; want 200", w.Code, w.Body.String())
	}
	serveJSON(site, "POST", "/walkthroughs/entities-search-then-lookup/step", step)
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
		{"an unknown walkthrough names the known ones", "POST", "/walkthroughs/nope/step", `{"step":"x"}`, 404, "entities-search-then-lookup"},
		{"a step request that is not JSON", "POST", "/walkthroughs/entities-search-then-lookup/step", `{`, 400, "not valid JSON"},
		{"a step is posted, not got", "GET", "/walkthroughs/entities-search-then-lookup/step", nil, 404, "POST /walkthroughs/<id>/step"},
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
