package walkthrough_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/request"
)

// postRun posts a run request to path, as the runner page does.
func postRun(t *testing.T, url string, req catalog.WalkRunRequest) (int, catalog.WalkRunAnswer) {
	t.Helper()
	var ans catalog.WalkRunAnswer
	return postJSON(t, url, req, &ans), ans
}

func postJSON(t *testing.T, url string, req, out any) int {
	t.Helper()
	body, _ := json.Marshal(req)
	res, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
	return res.StatusCode
}

// browse runs a walkthrough over the run protocol at path as the browser's runner does: each
// request the service resolves is built with app/request (the form's own builder) and sent
// through the proxy by one visitor, its answer posted back to be judged, until the run ends.
// It returns the last answer and the steps judged, as "step:action".
func browse(t *testing.T, base, path string, start catalog.WalkRunRequest) (catalog.WalkRunAnswer, []string) {
	t.Helper()
	cat := catalogOf(t, base)
	jar, _ := cookiejar.New(nil) // one visitor, as a browser keeps its sandbox cookie
	browser := &http.Client{Jar: jar}
	_, ans := postRun(t, base+path, start)
	var trace []string
	for i := 0; i < 30; i++ {
		if ans.Error != "" {
			t.Fatalf("got error %q", ans.Error)
		}
		for _, s := range ans.Steps {
			trace = append(trace, s.Step+":"+s.Action.Kind)
		}
		c := ans.Call
		if c == nil {
			return ans, trace
		}
		op := cat.API(c.API).Operation(c.OperationID)
		st := request.State{Params: map[string][]string{}, Body: c.Body}
		for _, p := range c.Params {
			st.Params[p.In+":"+p.Name] = p.Values
		}
		req, errs := request.Build(op, base+"/proxy/"+c.API, st)
		if len(errs) > 0 {
			t.Fatalf("step %s: %v", c.Step, errs)
		}
		hr, _ := http.NewRequest(req.Method, req.URL, bytes.NewReader(req.Body))
		for _, h := range req.Headers {
			hr.Header.Add(h.Name, h.Value)
		}
		res, err := browser.Do(hr)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		next := start
		next.Workflow, next.Inputs, next.State = "", nil, ans.State
		next.Response = &catalog.WalkResponse{Status: res.StatusCode, ContentType: res.Header.Get("Content-Type"), Body: string(body)}
		_, ans = postRun(t, base+path, next)
	}
	t.Fatalf("the run did not end after 30 requests: %v", trace)
	return ans, trace
}

func catalogOf(t *testing.T, base string) *catalog.Catalog {
	t.Helper()
	res, err := http.Get(base + "/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var cat catalog.Catalog
	if err := json.NewDecoder(res.Body).Decode(&cat); err != nil {
		t.Fatal(err)
	}
	return &cat
}

// TestTheRunnerPathWalksEveryStep runs walkthroughs the way the browser does, to their end.
func TestTheRunnerPathWalksEveryStep(t *testing.T) {
	_, base := startServer(t)
	for _, tc := range []struct{ id, want string }{
		{"script-deploy-and-run", ""},
		{"cluster-security-upgrade", "health:next checkUpgrade:next backUpRoles:next backUpRoleMappings:next performUpgrade:next checkAgain:end"},
		{"chat-tool-round-trip", "askForApp:next callTool:next sendToolResult:next"},
		{"entities-search-then-lookup", "search:next lookup:next"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			ans, trace := browse(t, base, "/walkthroughs/"+tc.id+"/run", catalog.WalkRunRequest{})
			if !ans.Finished || !ans.OK {
				t.Fatalf("got finished %v, ok %v (%s; %s) after %v; want the workflow to succeed", ans.Finished, ans.OK, ans.Reason, ans.Hint, trace)
			}
			if got := strings.Join(trace, " "); tc.want != "" && got != tc.want {
				t.Errorf("got steps %s; want %s", got, tc.want)
			}
		})
	}
}

// TestRunErrors: what the run protocol answers to requests it cannot serve, and to a step that
// fails.
func TestRunErrors(t *testing.T) {
	_, base := startServer(t)
	run := base + "/walkthroughs/entities-search-then-lookup/run"
	for _, tc := range []struct {
		name, url       string
		req             catalog.WalkRunRequest
		status          int
		want, wantInput string
	}{
		{"an unknown walkthrough", base + "/walkthroughs/nope/run", catalog.WalkRunRequest{}, 404, `There is no walkthrough "nope". The walkthroughs are: chat-tool-round-trip,`, ""},
		{"an unknown workflow", run, catalog.WalkRunRequest{Workflow: "x"}, 200, `has no workflow "x"; its workflows are: searchThenLookup`, ""},
		{"an unknown input", run, catalog.WalkRunRequest{Inputs: map[string]string{"lang": "fr"}}, 200, "Input lang: unknown; workflow searchThenLookup takes query", "lang"},
		{"a state that is not JSON", run, catalog.WalkRunRequest{State: json.RawMessage(`"x"`)}, 200, "The run's state is not valid JSON: start the walkthrough again.", ""},
		{"an answer nothing waits for", run, catalog.WalkRunRequest{State: json.RawMessage(`{"target":"searchThenLookup","finished":true}`), Response: &catalog.WalkResponse{Status: 200}}, 200, "The run is not waiting for an answer", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, ans := postRun(t, tc.url, tc.req)
			if status != tc.status || !strings.Contains(ans.Error, tc.want) || ans.Input != tc.wantInput {
				t.Errorf("got %d %q (input %q); want %d and an error containing %q (input %q)", status, ans.Error, ans.Input, tc.status, tc.want, tc.wantInput)
			}
		})
	}

	t.Run("a failing criterion", func(t *testing.T) {
		_, ans := postRun(t, run, catalog.WalkRunRequest{})
		_, ans = postRun(t, run, catalog.WalkRunRequest{State: ans.State, Response: &catalog.WalkResponse{Status: 200, ContentType: "application/json", Body: `{"itemListElement":[]}`}})
		if len(ans.Steps) != 1 {
			t.Fatalf("got %+v; want the search judged", ans)
		}
		s := ans.Steps[0]
		if s.OK || len(s.Criteria) != 2 || s.Criteria[0].Outcome != "passed" || s.Criteria[1].Outcome != "failed" || s.Criteria[1].Why == "" ||
			s.Action.Kind != "fail" || s.Hint == "" || !ans.Finished || ans.OK || ans.Call != nil {
			t.Errorf("got %+v (finished %v, ok %v); want the second criterion failed with why, the run over and a hint", s, ans.Finished, ans.OK)
		}
	})
}

// TestRunMarksTheBodysCarriedValues: a body value that comes from an expression is named by
// its JSON pointer, with its value and the expression, so the runner can mark it.
func TestRunMarksTheBodysCarriedValues(t *testing.T) {
	_, base := startServer(t)
	_, ans := postRun(t, base+"/walkthroughs/chat-tool-round-trip/run", catalog.WalkRunRequest{Inputs: map[string]string{"app": "a clock"}})
	if ans.Error != "" || ans.Call == nil {
		t.Fatalf("got error %q, call %v", ans.Error, ans.Call)
	}
	got, _ := json.Marshal(ans.Call.BodyFrom)
	want := `[{"name":"/messages/0/content","in":"body","values":["a clock"],"from":"$inputs.app"}]`
	if string(got) != want {
		t.Errorf("got body marks %s; want %s", got, want)
	}
}

// TestTheStepProtocolIsRetired: the runner moved to the run protocol; the step protocol is
// answered by nothing but the app's pages.
func TestTheStepProtocolIsRetired(t *testing.T) {
	_, base := startServer(t)
	res, err := http.Post(base+"/walkthroughs/entities-search-then-lookup/step", "application/json", strings.NewReader(`{"step":"search"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode == http.StatusOK {
		t.Errorf("POST /walkthroughs/<id>/step: got %d; want it gone", res.StatusCode)
	}
}
