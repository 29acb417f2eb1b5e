package script

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// TestScopeChecks: for every operation, a token with one of its scopes passes the check and a
// token with none of them gets Google's 403 naming the method; the key passes everywhere.
func TestScopeChecks(t *testing.T) {
	h, _ := newOAuthTest(t, Options{})
	const p1 = "/v1/projects/" + SeedScriptID
	calls := []struct{ op, method, path string }{
		{"projects.create", "POST", "/v1/projects"},
		{"projects.get", "GET", p1},
		{"projects.getContent", "GET", p1 + "/content"},
		{"projects.updateContent", "PUT", p1 + "/content"},
		{"projects.getMetrics", "GET", p1 + "/metrics"},
		{"projects.deployments.create", "POST", p1 + "/deployments"},
		{"projects.deployments.list", "GET", p1 + "/deployments"},
		{"projects.deployments.get", "GET", p1 + "/deployments/x"},
		{"projects.deployments.update", "PUT", p1 + "/deployments/x"},
		{"projects.deployments.delete", "DELETE", p1 + "/deployments/x"},
		{"projects.versions.create", "POST", p1 + "/versions"},
		{"projects.versions.list", "GET", p1 + "/versions"},
		{"projects.versions.get", "GET", p1 + "/versions/1"},
		{"processes.list", "GET", "/v1/processes"},
		{"processes.listScriptProcesses", "GET", "/v1/processes:listScriptProcesses"},
		{"scripts.run", "POST", "/v1/scripts/" + SeedDeploymentID + ":run"},
	}
	if len(calls) != len(opScopes) {
		t.Fatalf("the test covers %d operations; opScopes has %d", len(calls), len(opScopes))
	}
	// A token with every scope but the operation's is refused; one with the last scope it
	// accepts passes the check (whatever the operation then answers, it is not 401 or 403).
	for _, c := range calls {
		need := opScopes[c.op]
		if got := route(c.method, c.path).id; got != c.op {
			t.Fatalf("%s %s routes to %q; want %s", c.method, c.path, got, c.op)
		}
		var others []string
		for _, s := range Scopes {
			if !strings.Contains(" "+strings.Join(need.scopes, " ")+" ", " "+s.Name+" ") {
				others = append(others, s.Name)
			}
		}
		narrow, _ := signIn(t, h, strings.Join(others, " "))
		code, v := callAuth(t, h, c.method, c.path, "", "Bearer "+narrow)
		want := map[string]any{"error": map[string]any{
			"code": 403.0, "message": "Request had insufficient authentication scopes.", "status": "PERMISSION_DENIED",
			"details": []any{map[string]any{
				"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "ACCESS_TOKEN_SCOPE_INSUFFICIENT", "domain": "googleapis.com",
				"metadata": map[string]any{"method": need.method, "service": "script.googleapis.com"},
			}},
		}}
		if code != 403 || !reflect.DeepEqual(v, want) {
			t.Errorf("%s without its scopes: got %d %s; want 403 %s", c.op, code, js(v), js(want))
		}
		enough, _ := signIn(t, h, need.scopes[len(need.scopes)-1])
		if code, v := callAuth(t, h, c.method, c.path, "", "Bearer "+enough); code == 401 || code == 403 {
			t.Errorf("%s with %s: got %d %s; want the check passed", c.op, need.scopes[len(need.scopes)-1], code, js(v))
		}
		if code, v := call(t, h, c.method, c.path, ""); code == 401 || code == 403 {
			t.Errorf("%s with the key: got %d %s; want the check passed", c.op, code, js(v))
		}
	}
}

// TestTokenRejected: unknown, forged and revoked tokens get Google's 401 with the method and a
// Bearer challenge; a token in access_token works as in the header.
func TestTokenRejected(t *testing.T) {
	h, _ := newOAuthTest(t, Options{})
	const path = "/v1/projects/" + SeedScriptID + "/content"
	access, _ := signIn(t, h, scopeReadonly)
	code, v := callAuth(t, h, "GET", path, "", "Bearer sandbox-at.forged")
	want := map[string]any{"error": map[string]any{
		"code": 401.0, "message": invalidCredentials, "status": "UNAUTHENTICATED",
		"details": []any{map[string]any{
			"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "ACCESS_TOKEN_TYPE_UNSUPPORTED", "domain": "googleapis.com",
			"metadata": map[string]any{"method": "google.apps.script.v1.ProjectsService.GetContent", "service": "script.googleapis.com"},
		}},
	}}
	if code != 401 || !reflect.DeepEqual(v, want) {
		t.Errorf("forged token: got %d %s; want %s", code, js(v), js(want))
	}
	if code, v := callAuth(t, h, "GET", path+"?access_token="+access, "", ""); code != 200 {
		t.Errorf("access_token parameter: got %d %s; want 200", code, js(v))
	}
	r := httptest.NewRequest("GET", path, nil)
	r.Header.Set("Authorization", "Bearer nope")
	w := serve(h, r)
	if got := w.Header().Get("WWW-Authenticate"); got != `Bearer realm="script sandbox", error="invalid_token"` {
		t.Errorf("WWW-Authenticate got %q", got)
	}
	narrow, _ := signIn(t, h, scopeMetrics)
	r = httptest.NewRequest("GET", path, nil)
	r.Header.Set("Authorization", "Bearer "+narrow)
	w = serve(h, r)
	if got, want := w.Header().Get("WWW-Authenticate"), `error="insufficient_scope", scope="`+scopeProjects+" "+scopeReadonly+`"`; w.Code != 403 || !strings.Contains(got, want) {
		t.Errorf("WWW-Authenticate got %d %q; want 403 with %q", w.Code, got, want)
	}
}
