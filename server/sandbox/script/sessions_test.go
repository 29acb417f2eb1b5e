package script

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"loupe/server/sandbox"
	"loupe/server/sandbox/state"
	"loupe/server/sandbox/state/boltstore"
)

// as is a handler called in one sandbox session.
func as(h http.Handler, session string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(state.WithSession(r.Context(), session)))
	})
}

// TestSessionsIsolated: one session's project, run and content change are invisible to
// another, whose processes.list shows only its own; Reset gives the first the seed back.
func TestSessionsIsolated(t *testing.T) {
	c := &clock{}
	c.set(t, "2026-11-20T12:10:00Z")
	reg := state.NewRegistry(state.NewMemory(), state.Options{})
	h := New(Options{Now: c.now, State: reg})
	ada, bob := as(h, "user:ada"), as(h, "user:bob")

	id := mustCall(t, ada, "POST", "/v1/projects", `{"title":"Ada's secret project"}`)["scriptId"].(string)
	mustCall(t, ada, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":"function adaOnly() { return 1; }"}]}`)
	mustCall(t, ada, "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"adaOnly","devMode":true}`)

	if code, _ := call(t, bob, "GET", "/v1/projects/"+id, ""); code != 404 {
		t.Errorf("bob reads ada's project: got %d; want 404", code)
	}
	if got := js(mustCall(t, bob, "GET", "/v1/processes", "")); strings.Contains(got, "adaOnly") {
		t.Errorf("bob's processes.list: got %s; want none of ada's runs", got)
	}
	if got := js(mustCall(t, ada, "GET", "/v1/processes", "")); !strings.Contains(got, "adaOnly") {
		t.Errorf("ada's processes.list: got %s; want her run", got)
	}
	if got := js(mustCall(t, bob, "GET", contentPath, "")); strings.Contains(got, "adaOnly") {
		t.Errorf("bob's content: got %s; want the seed", got)
	}
	if err := reg.Reset(state.WithSession(context.Background(), "user:ada"), "script"); err != nil {
		t.Fatal(err)
	}
	if code, _ := call(t, ada, "GET", "/v1/projects/"+id, ""); code != 404 {
		t.Errorf("ada's project after her Reset: got %d; want 404", code)
	}
	if got := js(mustCall(t, ada, "GET", contentPath, "")); strings.Contains(got, "adaOnly") {
		t.Errorf("ada's content after Reset: got %s; want the seed", got)
	}
}

// TestReplay: every kind of change, made through the API on a durable store, reads back the
// same from a new handler over the reopened store (what a restart does).
func TestReplay(t *testing.T) {
	c := &clock{}
	c.set(t, "2026-11-20T12:10:00Z")
	dir := t.TempDir()
	open := func() (http.Handler, state.Store) {
		st, err := boltstore.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		return as(New(Options{Now: c.now, State: state.NewRegistry(st, state.Options{})}), "user:ada"), st
	}
	h, st := open()
	id := mustCall(t, h, "POST", "/v1/projects", `{"title":"Replayed"}`)["scriptId"].(string)
	files := `{"files":[` + manifestFile + `,{"name":"Code","type":"SERVER_JS","source":"function hello() { return 'hi'; }"}]}`
	mustCall(t, h, "PUT", "/v1/projects/"+id+"/content", files)
	c.set(t, "2026-11-20T12:11:00Z")
	mustCall(t, h, "POST", "/v1/projects/"+id+"/versions", `{"description":"one"}`)
	mustCall(t, h, "POST", "/v1/projects/"+id+"/versions", `{"description":"two, same files"}`)
	dep := mustCall(t, h, "POST", "/v1/projects/"+id+"/deployments", `{"versionNumber":1,"description":"first"}`)["deploymentId"].(string)
	mustCall(t, h, "PUT", "/v1/projects/"+id+"/deployments/"+dep, `{"deploymentConfig":{"versionNumber":2,"description":"moved"}}`)
	gone := mustCall(t, h, "POST", "/v1/projects/"+id+"/deployments", `{"versionNumber":1}`)["deploymentId"].(string)
	mustCall(t, h, "DELETE", "/v1/projects/"+id+"/deployments/"+gone, "")
	mustCall(t, h, "PUT", contentPath, files) // the seeded project changed
	mustCall(t, h, "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"hello","devMode":true}`)
	mustCall(t, h, "POST", "/v1/scripts/"+SeedDeploymentID+":run", `{"function":"sendInvoices"}`)

	reads := []string{
		"/v1/projects/" + id, "/v1/projects/" + id + "/content", "/v1/projects/" + id + "/content?versionNumber=2",
		"/v1/projects/" + id + "/versions", "/v1/projects/" + id + "/deployments", "/v1/projects/" + id + "/deployments/" + dep,
		"/v1/projects/" + SeedScriptID, contentPath, "/v1/projects/" + SeedScriptID + "/versions",
		"/v1/projects/" + SeedScriptID + "/deployments", "/v1/processes",
		"/v1/processes:listScriptProcesses?scriptId=" + SeedScriptID,
		"/v1/projects/" + SeedScriptID + "/metrics?metricsGranularity=DAILY",
	}
	before := map[string]string{}
	for _, p := range reads {
		before[p] = js(mustCall(t, h, "GET", p, ""))
	}
	st.Close()
	h2, st2 := open()
	for _, p := range reads {
		if got := js(mustCall(t, h2, "GET", p, "")); got != before[p] {
			t.Errorf("GET %s after reopening:\n got %s\nwant %s", p, got, before[p])
		}
	}
	// A run after the restart adds a process; it does not overwrite one stored before.
	mustCall(t, h2, "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"hello","devMode":true}`)
	st2.Close()
	h3, st3 := open()
	defer st3.Close()
	n := strings.Count(before["/v1/processes"], "functionName")
	if got := strings.Count(js(mustCall(t, h3, "GET", "/v1/processes", "")), "functionName"); got != n+1 {
		t.Errorf("processes after a run past the restart: got %d; want %d", got, n+1)
	}
	h2 = h3
	// New IDs after the restart do not reuse the ones made before it.
	if id2 := mustCall(t, h2, "POST", "/v1/projects", `{}`)["scriptId"].(string); id2 == id {
		t.Errorf("a project made after reopening got the ID %s of one made before", id2)
	}
}

// TestSessionFull: a change past the session's bytes answers 507 RESOURCE_EXHAUSTED saying to
// Reset, and changes nothing.
func TestSessionFull(t *testing.T) {
	reg := state.NewRegistry(state.NewMemory(), state.Options{Limits: state.Limits{MaxBytes: 4096}})
	h := as(New(Options{State: reg}), "anon:x")
	big := strings.Repeat("x", 5000)
	code, v := call(t, h, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":"// `+big+`"}]}`)
	st, msg := errorOf(v)
	if code != 507 || st != "RESOURCE_EXHAUSTED" || !strings.Contains(msg, "Reset") {
		t.Fatalf("too big: got %d %s; want 507 RESOURCE_EXHAUSTED saying Reset", code, js(v))
	}
	if got := js(mustCall(t, h, "GET", contentPath, "")); strings.Contains(got, big) {
		t.Errorf("after the refused change: the content changed")
	}
}

// TestSessionCredential: a request without a session in its context is the Local session,
// and the handler still checks the credential first.
func TestSessionCredential(t *testing.T) {
	h := New(Options{})
	r := httptest.NewRequest("GET", "/v1/processes", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 401 {
		t.Errorf("no credential: got %d; want 401", w.Code)
	}
	r.Header.Set("Authorization", "Bearer "+sandbox.DefaultKey)
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 {
		t.Errorf("with the key: got %d; want 200", w.Code)
	}
}
