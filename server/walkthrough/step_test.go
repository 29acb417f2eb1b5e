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

// postStep asks the server about one step, as the runner page does.
func postStep(t *testing.T, base, id string, req catalog.WalkStepRequest) (int, catalog.WalkStepAnswer) {
	t.Helper()
	body, _ := json.Marshal(req)
	res, err := http.Post(base+"/walkthroughs/"+id+"/step", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var ans catalog.WalkStepAnswer
	if err := json.NewDecoder(res.Body).Decode(&ans); err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, ans
}

// TestTheRunnerPathWalksEveryStep runs walkthroughs the way the browser does: the server
// resolves each step's request, the client builds it with app/request and sends it through the
// proxy, and the server judges the answer and names the next step, until the end.
func TestTheRunnerPathWalksEveryStep(t *testing.T) {
	srv, base := startServer(t)
	cat := srv.Catalog()
	for _, id := range []string{"script-deploy-and-run", "cluster-security-upgrade", "chat-tool-round-trip"} {
		t.Run(id, func(t *testing.T) {
			w := srv.Walkthroughs().Get(id)
			api := cat.API(w.API.Slug)
			jar, _ := cookiejar.New(nil) // one visitor, as a browser keeps its sandbox cookie
			browser := &http.Client{Jar: jar}
			outputs := map[string]map[string]json.RawMessage{}
			step, ran := w.Workflow.Steps[0].ID, 0
			for step != "" && ran < 20 {
				ran++
				_, ans := postStep(t, base, id, catalog.WalkStepRequest{Step: step, Outputs: outputs})
				if ans.Error != "" {
					t.Fatalf("step %s: %s", step, ans.Error)
				}
				var op *catalog.Operation
				for _, s := range w.Workflow.Steps {
					if s.ID == step {
						op = api.Operation(s.Operation.ID)
					}
				}
				st := request.State{Params: map[string][]string{}, Body: ans.Body}
				for _, p := range ans.Params {
					st.Params[p.In+":"+p.Name] = p.Values
				}
				req, errs := request.Build(op, base+"/proxy/"+api.Slug, st)
				if len(errs) > 0 {
					t.Fatalf("step %s: %v", step, errs)
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
				_, ans = postStep(t, base, id, catalog.WalkStepRequest{Step: step, Outputs: outputs, Response: &catalog.WalkResponse{
					Status: res.StatusCode, ContentType: res.Header.Get("Content-Type"), Body: string(body)}})
				if !ans.OK || ans.Error != "" {
					t.Fatalf("step %s: got %+v; want every criterion to hold", step, ans)
				}
				outputs[step] = ans.Outputs
				step = ans.Next
			}
			if step != "" {
				t.Fatalf("the walkthrough did not end after %d steps", ran)
			}
		})
	}
}

// TestStepErrors: an unknown walkthrough, a missing input, a step whose earlier steps did not
// run, and an answer whose criterion fails.
func TestStepErrors(t *testing.T) {
	_, base := startServer(t)
	for _, tc := range []struct {
		name, id string
		req      catalog.WalkStepRequest
		status   int
		want     string
	}{
		{"an unknown walkthrough", "nope", catalog.WalkStepRequest{Step: "x"}, 404, `There is no walkthrough "nope". The walkthroughs are: chat-tool-round-trip,`},
		{"an unknown step", "entities-search-then-lookup", catalog.WalkStepRequest{Step: "x"}, 200, `walkthrough entities-search-then-lookup has no step "x"`},
		{"an empty required input", "entities-search-then-lookup", catalog.WalkStepRequest{Step: "search", Inputs: map[string]string{"query": "x", "lang": "fr"}}, 200, "input lang: unknown"},
		{"an earlier step not run", "entities-search-then-lookup", catalog.WalkStepRequest{Step: "lookup"}, 200, "step lookup: parameter ids: $steps.search.outputs.id: step search has not run"},
		{"a failing criterion", "entities-search-then-lookup", catalog.WalkStepRequest{Step: "search", Response: &catalog.WalkResponse{Status: 200, ContentType: "application/json", Body: `{"itemListElement":[]}`}}, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, ans := postStep(t, base, tc.id, tc.req)
			if status != tc.status || !strings.Contains(ans.Error, tc.want) {
				t.Errorf("got %d %q; want %d and an error containing %q", status, ans.Error, tc.status, tc.want)
			}
			if tc.name == "a failing criterion" {
				if ans.OK || len(ans.Criteria) != 2 || ans.Criteria[0].Outcome != "passed" || ans.Criteria[1].Outcome != "failed" || ans.Next != "" || ans.Hint == "" {
					t.Errorf("got %+v; want the second criterion failed, no next step and a hint", ans)
				}
			}
		})
	}
}

// TestStepMarksTheBodysCarriedValues: a body value that comes from an expression is named by
// its JSON pointer, with its value and the expression, so the runner can mark it.
func TestStepMarksTheBodysCarriedValues(t *testing.T) {
	_, base := startServer(t)
	_, ans := postStep(t, base, "chat-tool-round-trip", catalog.WalkStepRequest{Step: "askForApp", Inputs: map[string]string{"app": "a clock"}})
	if ans.Error != "" {
		t.Fatalf("got error %q", ans.Error)
	}
	got, _ := json.Marshal(ans.BodyFrom)
	want := `[{"name":"/messages/0/content","in":"body","values":["a clock"],"from":"$inputs.app"}]`
	if string(got) != want {
		t.Errorf("got body marks %s; want %s", got, want)
	}
}

// TestTheRunProtocolRunsAWorkflow runs the cluster walkthrough as the browser's runner does
// with the run protocol: each answer names the request to send and carries the state, which
// goes back with the request's answer; the end action shows in the last step.
func TestTheRunProtocolRunsAWorkflow(t *testing.T) {
	_, base := startServer(t)
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	post := func(req catalog.WalkRunRequest) catalog.WalkRunAnswer {
		t.Helper()
		body, _ := json.Marshal(req)
		res, err := http.Post(base+"/walkthroughs/cluster-security-upgrade/run", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var ans catalog.WalkRunAnswer
		if err := json.NewDecoder(res.Body).Decode(&ans); err != nil || ans.Error != "" {
			t.Fatalf("got %v %q", err, ans.Error)
		}
		return ans
	}
	ans := post(catalog.WalkRunRequest{})
	var trace []string
	for i := 0; ans.Call != nil && i < 20; i++ {
		c := ans.Call
		var q []string
		for _, p := range c.Params {
			q = append(q, p.Name+"="+p.Values[0])
		}
		op := map[string]string{"cluster.health": "GET /_cluster/health", "security.config_upgrade_check": "GET /_plugins/_security/api/_upgrade_check",
			"security.get_roles": "GET /_plugins/_security/api/roles", "security.get_rolesmapping": "GET /_plugins/_security/api/rolesmapping",
			"security.config_upgrade_perform": "POST /_plugins/_security/api/_upgrade_perform"}[c.OperationID]
		method, path, _ := strings.Cut(op, " ")
		hr, _ := http.NewRequest(method, base+"/proxy/"+c.API+path, nil)
		res, err := browser.Do(hr)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		ans = post(catalog.WalkRunRequest{State: ans.State, Response: &catalog.WalkResponse{Status: res.StatusCode, ContentType: res.Header.Get("Content-Type"), Body: string(raw)}})
		for _, s := range ans.Steps {
			trace = append(trace, s.Step+":"+s.Action.Kind)
		}
	}
	got := strings.Join(trace, " ")
	want := "health:next checkUpgrade:next backUpRoles:next backUpRoleMappings:next performUpgrade:next checkAgain:end"
	if got != want || !ans.Finished || !ans.OK || string(ans.Outputs["upgradeAvailable"]) != "false" {
		t.Errorf("got %s (finished %v, ok %v, outputs %s); want %s, finished and ok, upgradeAvailable false", got, ans.Finished, ans.OK, ans.Outputs, want)
	}
}
