package cluster

import (
	"net/http"
	"testing"

	"loupe/server/sandbox"
)

// TestCredentials checks which Authorization headers each configuration
// accepts (200), refuses (401) or forbids (403), on every endpoint: health,
// health of an index, check, perform.
func TestCredentials(t *testing.T) {
	def := newTest(Options{})
	custom := newTest(Options{Key: "s3cret", ReaderKey: "peek", GuestKey: "nobody"})
	readOnly := newTest(Options{Key: DefaultReaderKey})
	const ok, unauth, forbidden = http.StatusOK, http.StatusUnauthorized, http.StatusForbidden
	all := func(s int) [4]int { return [4]int{s, s, s, s} }
	tests := []struct {
		name string
		h    http.Handler
		auth string
		want [4]int
	}{
		{"default key", def, "ApiKey " + sandbox.DefaultKey, all(ok)},
		{"scheme in any case", def, "apikey " + sandbox.DefaultKey, all(ok)},
		{"basic with the key as password", def, basic("admin", sandbox.DefaultKey), all(ok)},
		{"basic with another user", def, basic("alice", sandbox.DefaultKey), all(ok)},
		{"missing", def, "", all(unauth)},
		{"wrong key", def, "ApiKey nope", all(unauth)},
		{"empty key", def, "ApiKey ", all(unauth)},
		{"bearer", def, "Bearer " + sandbox.DefaultKey, all(unauth)},
		{"basic demo password", def, basic("admin", "admin"), all(unauth)},
		{"basic not base64", def, "Basic !!!", all(unauth)},
		{"basic without colon", def, "Basic " + "YWRtaW4=", all(unauth)},
		{"default read-only key", def, "ApiKey " + DefaultReaderKey, [4]int{ok, ok, ok, forbidden}},
		{"custom key", custom, "ApiKey s3cret", all(ok)},
		{"default key on custom", custom, "ApiKey " + sandbox.DefaultKey, all(unauth)},
		{"reader key", custom, "ApiKey peek", [4]int{ok, ok, ok, forbidden}},
		{"reader key as basic", custom, basic("bob", "peek"), [4]int{ok, ok, ok, forbidden}},
		{"default reader key on custom", custom, "ApiKey " + DefaultReaderKey, all(unauth)},
		{"guest key", custom, "ApiKey nobody", all(forbidden)},
		{"guest key unset", def, "ApiKey nobody", all(unauth)},
		// A sandbox configured with the read-only key as its key stays read-only.
		{"read-only key as Key", readOnly, "ApiKey " + DefaultReaderKey, [4]int{ok, ok, ok, forbidden}},
		{"admin key when Key is read-only", readOnly, "ApiKey " + sandbox.DefaultKey, all(ok)},
	}
	for _, tt := range tests {
		for i, ep := range []struct{ method, path, body string }{
			{http.MethodGet, "/_cluster/health", ""},
			{http.MethodGet, "/_cluster/health/products", ""},
			{http.MethodGet, UpgradeCheckPath, ""},
			{http.MethodPost, UpgradePerformPath, `{"config":["tenants"]}`},
		} {
			w := do(t, tt.h, ep.method, ep.path, tt.auth, ep.body)
			if w.Code != tt.want[i] {
				t.Errorf("%s, %s %s: status: got %d; want %d (%s)", tt.name, ep.method, ep.path, w.Code, tt.want[i], w.Body)
			}
			if tt.want[i] == http.StatusUnauthorized {
				if got, want := w.Header().Get("WWW-Authenticate"), `Basic realm="OpenSearch Security"`; got != want {
					t.Errorf("%s: WWW-Authenticate: got %q; want %q", tt.name, got, want)
				}
				if got, want := w.Body.String(), "Unauthorized"; got != want {
					t.Errorf("%s: body: got %q; want %q", tt.name, got, want)
				}
			}
		}
	}
}

// TestForbiddenBodies checks the 403 bodies name the user.
func TestForbiddenBodies(t *testing.T) {
	h := newTest(Options{ReaderKey: "peek", GuestKey: "nobody"})
	tests := []struct {
		method, path, auth, want string
	}{
		{http.MethodGet, "/_cluster/health", basic("bob", "nobody"),
			`{"error":{"root_cause":[{"type":"security_exception","reason":"no permissions for [cluster:monitor/health] and User [name=bob, backend_roles=[], requestedTenant=null]"}],"type":"security_exception","reason":"no permissions for [cluster:monitor/health] and User [name=bob, backend_roles=[], requestedTenant=null]"},"status":403}`},
		{http.MethodPost, UpgradePerformPath, "ApiKey peek",
			`{"status":"FORBIDDEN","message":"No permission to access REST API: User reader with backend roles [] does not have any access to endpoint CONFIG"}`},
	}
	for _, tt := range tests {
		if got := do(t, h, tt.method, tt.path, tt.auth, "").Body.String(); got != tt.want {
			t.Errorf("%s %s: body:\n got %s\nwant %s", tt.method, tt.path, got, tt.want)
		}
	}
}

// TestRouting checks unknown paths (400), wrong methods (405), HEAD, the
// legacy plugin prefix and a mount that leaves the leading slash out.
func TestRouting(t *testing.T) {
	h := newTest(Options{})
	tests := []struct {
		method, target string
		status         int
		body, allow    string
	}{
		{http.MethodGet, "/_cat/health", http.StatusBadRequest, `{"error":"no handler found for uri [/_cat/health] and method [GET]"}`, ""},
		{http.MethodGet, "/_cluster/healthz?x=1", http.StatusBadRequest, `{"error":"no handler found for uri [/_cluster/healthz?x=1] and method [GET]"}`, ""},
		{http.MethodPost, "/_cluster/health", http.StatusMethodNotAllowed, `{"error":"Incorrect HTTP method for uri [/_cluster/health] and method [POST], allowed: [GET]","status":405}`, "GET"},
		{http.MethodPost, UpgradeCheckPath, http.StatusMethodNotAllowed, `{"error":"Incorrect HTTP method for uri [/_plugins/_security/api/_upgrade_check] and method [POST], allowed: [GET]","status":405}`, "GET"},
		{http.MethodGet, UpgradePerformPath, http.StatusMethodNotAllowed, `{"error":"Incorrect HTTP method for uri [/_plugins/_security/api/_upgrade_perform] and method [GET], allowed: [POST]","status":405}`, "POST"},
		{http.MethodHead, "/_cluster/health", http.StatusOK, "", ""},
		{http.MethodGet, "/_opendistro/_security/api/_upgrade_check", http.StatusOK, "", ""},
		{http.MethodPost, "/_opendistro/_security/api/_upgrade_perform", http.StatusOK, "", ""},
	}
	for _, tt := range tests {
		w := do(t, h, tt.method, tt.target, apiKey, "")
		if w.Code != tt.status {
			t.Errorf("%s %s: status: got %d; want %d", tt.method, tt.target, w.Code, tt.status)
		}
		if tt.body != "" && w.Body.String() != tt.body {
			t.Errorf("%s %s: body:\n got %s\nwant %s", tt.method, tt.target, w.Body, tt.body)
		}
		if got := w.Header().Get("Allow"); got != tt.allow {
			t.Errorf("%s %s: Allow: got %q; want %q", tt.method, tt.target, got, tt.allow)
		}
	}
	// Mounted under /sandbox/cluster with the prefix stripped, as the server does.
	mounted := http.StripPrefix("/sandbox/cluster", h)
	if w := get(t, mounted, "/sandbox/cluster/_cluster/health"); w.Code != http.StatusOK {
		t.Errorf("mounted: status: got %d; want 200", w.Code)
	}
}
