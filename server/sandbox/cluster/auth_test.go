package cluster

import (
	"net/http"
	"testing"

	"loupe/server/sandbox"
)

// TestCredentials checks which Authorization headers each configuration
// accepts (200), refuses (401) or forbids (403), on every endpoint.
func TestCredentials(t *testing.T) {
	def := New(Options{})
	custom := New(Options{Key: "s3cret", ReaderKey: "peek"})
	tests := []struct {
		name string
		h    http.Handler
		auth string
		want int
	}{
		{"default key", def, "ApiKey " + sandbox.DefaultKey, http.StatusOK},
		{"scheme in any case", def, "apikey " + sandbox.DefaultKey, http.StatusOK},
		{"basic with the key as password", def, basic("admin", sandbox.DefaultKey), http.StatusOK},
		{"basic with another user", def, basic("alice", sandbox.DefaultKey), http.StatusOK},
		{"missing", def, "", http.StatusUnauthorized},
		{"wrong key", def, "ApiKey nope", http.StatusUnauthorized},
		{"empty key", def, "ApiKey ", http.StatusUnauthorized},
		{"bearer", def, "Bearer " + sandbox.DefaultKey, http.StatusUnauthorized},
		{"basic demo password", def, basic("admin", "admin"), http.StatusUnauthorized},
		{"basic not base64", def, "Basic !!!", http.StatusUnauthorized},
		{"basic without colon", def, "Basic " + "YWRtaW4=", http.StatusUnauthorized},
		{"custom key", custom, "ApiKey s3cret", http.StatusOK},
		{"default key on custom", custom, "ApiKey " + sandbox.DefaultKey, http.StatusUnauthorized},
		{"reader key", custom, "ApiKey peek", http.StatusForbidden},
		{"reader key as basic", custom, basic("bob", "peek"), http.StatusForbidden},
		{"reader key unset", def, "ApiKey peek", http.StatusUnauthorized},
	}
	for _, tt := range tests {
		for _, ep := range []struct{ method, path, body string }{
			{http.MethodGet, "/_cluster/health", ""},
			{http.MethodGet, "/_cluster/health/products", ""},
			{http.MethodGet, UpgradeCheckPath, ""},
			{http.MethodPost, UpgradePerformPath, `{"config":["tenants"]}`},
		} {
			w := do(t, tt.h, ep.method, ep.path, tt.auth, ep.body)
			if w.Code != tt.want {
				t.Errorf("%s, %s %s: status: got %d; want %d (%s)", tt.name, ep.method, ep.path, w.Code, tt.want, w.Body)
			}
			if tt.want == http.StatusUnauthorized {
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
	h := New(Options{ReaderKey: "peek"})
	tests := []struct {
		method, path, auth, want string
	}{
		{http.MethodGet, "/_cluster/health", basic("bob", "peek"),
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
	h := New(Options{})
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
