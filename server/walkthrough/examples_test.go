package walkthrough

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"loupe/app/catalog"
	servercatalog "loupe/server/catalog"
	"loupe/server/walkthrough/flow"
)

// specDir holds the Arazzo specification's examples (testdata/arazzo-spec/README.md).
const specDir = "testdata/arazzo-spec"

// specCatalog is Loupe's catalog with the examples' OpenAPI documents as APIs of your own, and
// the sources that match the examples' source descriptions to them: by their files for the
// relative urls, by name for the two that name a URL on the web.
func specCatalog(t *testing.T) (*catalog.Catalog, Sources) {
	t.Helper()
	cat := loadCatalog(t)
	docs := map[string]string{}
	var own []servercatalog.Own
	for slug, file := range map[string]string{"petcoupons": "pet-coupons.openapi.yaml", "oauth": "oauth.openapi.yaml",
		"fapi": "FAPI-PAR.openapi.yaml", "bnpl": "bnpl-openapi.yaml", "petstore": "swagger-petstore.openapi.yaml", "animals": "animals.yaml"} {
		abs, err := filepath.Abs(filepath.Join(specDir, file))
		if err != nil {
			t.Fatal(err)
		}
		docs[abs] = slug
		own = append(own, servercatalog.Own{Slug: slug, Path: abs, Key: "apis." + slug + ".openapi"})
	}
	if _, err := servercatalog.LoadOwn(cat, own, servercatalog.Limits{}); err != nil {
		t.Fatal(err)
	}
	return cat, Sources{Documents: docs, Names: map[string]string{"BnplApi": "bnpl", "petStoreDescription": "petstore"}}
}

func loadSpec(t *testing.T, file string, cat *catalog.Catalog, src Sources) (*Walkthrough, error) {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join(specDir, file))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	set, err := LoadFiles([]File{{Name: abs, Display: file, Data: data}}, cat, src)
	if err != nil {
		return nil, err
	}
	return set.List()[0], nil
}

// stub is the examples' APIs: each request answers from the table by method and path, and is
// kept, so that a test can read what was sent.
type stub struct {
	answers map[string]stubAnswer
	mu      sync.Mutex
	got     []*http.Request
	bodies  []string
}

type stubAnswer struct {
	status  int
	header  map[string]string
	body    any
	checkIn func(r *http.Request, body string) string // "" when the request is as expected
}

func (s *stub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.got, s.bodies = append(s.got, r), append(s.bodies, string(body))
	s.mu.Unlock()
	a, ok := s.answers[r.Method+" "+r.URL.Path]
	if !ok {
		http.Error(w, "the stub has no "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	if a.checkIn != nil {
		if msg := a.checkIn(r, string(body)); msg != "" {
			http.Error(w, msg, http.StatusBadRequest)
			return
		}
	}
	for k, v := range a.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	json.NewEncoder(w).Encode(a.body)
}

// TestTheSpecificationsExamples loads each of the Arazzo specification's examples unchanged and
// runs every workflow of those that can run against a stub of their API: each ends with the
// outputs the example means. The others are refused before any request, each defect named.
func TestTheSpecificationsExamples(t *testing.T) {
	cat, src := specCatalog(t)
	form := func(want map[string]string) func(*http.Request, string) string {
		return func(r *http.Request, body string) string {
			if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
				return "want a form, got " + ct
			}
			for k, v := range want {
				if !strings.Contains(body, k+"="+v) {
					return "want " + k + "=" + v + " in " + body
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		file    string
		answers map[string]stubAnswer
		inputs  map[string]map[string]string // by workflow
		want    map[string]map[string]any    // each workflow's outputs
		check   func(t *testing.T, s *stub)
	}{
		{"oauth.arazzo.yaml", map[string]stubAnswer{
			"GET /authorize": {status: 200, body: map[string]any{"access_token": "browser-token", "code": "auth-code-1"},
				checkIn: func(r *http.Request, _ string) string {
					if q := r.URL.Query(); q.Get("client_id") != "cid" || q.Get("response_type") != "code" || q.Get("state") != "12345" {
						return "want client_id, response_type and state, got " + r.URL.RawQuery
					}
					return ""
				}},
			"POST /oauth/token": {status: 200, body: map[string]any{"access_token": "at-2", "refresh_token": "rt-2", "expires_in": 3600},
				checkIn: form(map[string]string{"grant_type": ""})},
		}, map[string]map[string]string{
			"refresh-token-flow":      {"my_client_id": "cid", "my_client_secret": "secret", "my_redirect_uri": "https://app/cb"},
			"client-credentials-flow": {"client_id": "cid", "client_secret": "secret"},
			"authorization-code-flow": {"client_id": "cid", "client_secret": "secret", "redirect_uri": "https://app/cb"},
		}, map[string]map[string]any{
			"refresh-token-flow":      {"access_token": "at-2", "refresh_token": "rt-2", "expires_in": float64(3600)},
			"client-credentials-flow": {"access_token": "at-2"},
			"authorization-code-flow": {"access_token": "at-2", "refresh_token": "rt-2", "expires_in": float64(3600)},
		}, func(t *testing.T, s *stub) {
			for i, r := range s.got {
				if r.URL.Path == "/oauth/token" && strings.Contains(s.bodies[i], "grant_type=refresh_token") && !strings.Contains(s.bodies[i], "refresh_token=rt-2") {
					t.Errorf("the refresh sent %s; want the refresh token the authorization code flow gave (rt-2)", s.bodies[i])
				}
			}
		}},
		{"LoginAndRetrievePets.arazzo.yaml", map[string]stubAnswer{
			"GET /user/login": {status: 200, header: map[string]string{"X-Expires-After": "2026-12-01T00:00:00Z", "X-Rate-Limit": "100"}, body: "session-xyz"},
			"GET /pet/findByStatus": {status: 200, body: []any{map[string]any{"id": 1, "name": "Rex", "status": "available"}},
				checkIn: func(r *http.Request, _ string) string {
					if r.Header.Get("Authorization") != "session-xyz" || r.URL.Query().Get("status") != "available" {
						return "want the session token and status=available"
					}
					return ""
				}},
		}, map[string]map[string]string{"loginUserRetrievePet": {"username": "ada", "password": "pw"}},
			map[string]map[string]any{"loginUserRetrievePet": {"available": []any{map[string]any{"id": float64(1), "name": "Rex", "status": "available"}}}}, nil},
		{"ExtendedParametersExample.arazzo.yaml", map[string]stubAnswer{
			"POST /animals":       {status: 201, body: map[string]any{"id": "a1"}},
			"GET /animals/random": {status: 200, body: map[string]any{"name": "okapi"}},
		}, nil, map[string]map[string]any{"animal-workflow": {}}, func(t *testing.T, s *stub) {
			for _, r := range s.got {
				if c, err := r.Cookie("workflowLevelParamOne"); err != nil || c.Value != "someValue" || r.Header.Get("workflowLevelParamTwo") != "someValue" {
					t.Errorf("%s %s: got cookies %v and headers %v; want the workflow's parameters on every step", r.Method, r.URL.Path, r.Cookies(), r.Header)
				}
			}
			if c, err := s.got[0].Cookie("authentication"); err != nil || c.Value != "SUPER_SECRET" {
				t.Errorf("post-step: got cookies %v; want its own authentication cookie too", s.got[0].Cookies())
			}
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			w, err := loadSpec(t, tc.file, cat, src)
			if err != nil {
				t.Fatalf("the example does not load: %v", err)
			}
			s := &stub{answers: tc.answers}
			ts := httptest.NewServer(s)
			defer ts.Close()
			x := &Executor{Base: func(*catalog.API) string { return ts.URL }}
			for _, wf := range w.Doc.Workflows {
				rep, err := Walk(context.Background(), w, wf.ID, tc.inputs[wf.ID], x, flow.Options{})
				if err != nil {
					t.Fatalf("%s: %v", wf.ID, err)
				}
				var out strings.Builder
				rep.Write(&out)
				if !rep.OK {
					t.Errorf("%s failed:\n%s", wf.ID, out.String())
					continue
				}
				if want := tc.want[wf.ID]; !reflect.DeepEqual(rep.Outputs, want) && !(len(want) == 0 && len(rep.Outputs) == 0) {
					t.Errorf("%s: got outputs %v; want %v\n%s", wf.ID, rep.Outputs, want, out.String())
				}
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

// TestTheSpecificationsExamplesThatCannotRun loads the examples that cannot run as written:
// each is refused before any request, every defect named by its line and JSON pointer.
func TestTheSpecificationsExamplesThatCannotRun(t *testing.T) {
	cat, src := specCatalog(t)
	for _, tc := range []struct {
		file string
		want []string
	}{
		// Its step sends pet_id in the path of GET /pet/{petId}/coupons, which has no {pet_id}.
		{"pet-coupons.arazzo.yaml", []string{
			"pet-coupons.arazzo.yaml:38: /workflows/0/steps/1/operationId: step find-coupons: parameter pet_id in path: GET /pet/{petId}/coupons has no {pet_id}"}},
		// Its document's operationId is Par; operationIds are case-sensitive.
		{"FAPI-PAR.arazzo.yaml", []string{
			`FAPI-PAR.arazzo.yaml:102: /workflows/0/steps/0/operationId: step PARStep: "$sourceDescriptions.auth-api.PAR" is no operation of Authentication API`}},
		// A step that reads its own output, an output no step declares, and a workflow output
		// without ".outputs.".
		{"bnpl-arazzo.yaml", []string{
			"bnpl-arazzo.yaml:231: /workflows/0/steps/4/parameters/0/value: $steps.authenticateCustomerAndAuthorizeLoan.outputs.redirectAuthToken: a step's request cannot use the step's own outputs",
			"bnpl-arazzo.yaml:242: /workflows/0/steps/5/parameters/0/value: $steps.initiateBnplTransaction.outputs.loanTransactionId reaches nothing: step initiateBnplTransaction declares no output loanTransactionId",
			"bnpl-arazzo.yaml:253: /workflows/0/steps/6/parameters/0/value: $steps.initiateBnplTransaction.outputs.loanTransactionId reaches nothing",
			`bnpl-arazzo.yaml:260: /workflows/0/outputs/finalizedPaymentPlan: "$steps.retrieveFinalizedPaymentPlan.finalizedPaymentPlan" is not a runtime expression: expected $steps.<stepId>.outputs.<name>`}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, err := loadSpec(t, tc.file, cat, src)
			if err == nil {
				t.Fatal("got no error; want the example's defects")
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("got\n%v\nwant it to contain\n%s", err, want)
				}
			}
		})
	}
}

// TestComponentsAndReferences runs a document that takes its inputs, parameters and actions
// from its components: the referenced parameters (one with its value overridden), the inputs'
// $refs and defaults, and the workflow's failure action (a retry) applying to a step.
func TestComponentsAndReferences(t *testing.T) {
	cat, src := specCatalog(t)
	abs, _ := filepath.Abs("testdata/components.arazzo.yaml")
	data, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	set, err := LoadFiles([]File{{Name: abs, Data: data}}, cat, src)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	s := &stub{answers: map[string]stubAnswer{
		"GET /pet/findByStatus": {status: 200, body: []any{map[string]any{"id": 7}}, checkIn: func(r *http.Request, _ string) string {
			if q := r.URL.Query(); q.Get("status") != "available" || q.Get("page") != "1" || q.Get("pageSize") != "2" {
				return "want status=available&page=1&pageSize=2, got " + r.URL.RawQuery
			}
			return ""
		}},
	}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/pet/7" {
			if calls++; calls == 1 {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id":7,"name":"Rex"}`))
			return
		}
		s.ServeHTTP(w, r)
	}))
	defer ts.Close()
	rep, err := Walk(context.Background(), set.List()[0], "", nil, &Executor{Base: func(*catalog.API) string { return ts.URL }}, flow.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rep.Write(&out)
	if !rep.OK || rep.Outputs["name"] != "Rex" || calls != 2 || !strings.Contains(out.String(), "↻ retry 1 of 1 (retryOnce)") {
		t.Errorf("got ok=%v outputs %v after %d calls of /pet/7; want Rex after one retry:\n%s", rep.OK, rep.Outputs, calls, out.String())
	}
}
