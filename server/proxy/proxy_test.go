package proxy

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestForwardAddsCredentialAndDropsTheBrowsers(t *testing.T) {
	h := newHarness(t, nil)
	tests := []struct {
		name, path          string
		header              http.Header
		wantPath, wantQuery string
		wantAuth            string
	}{
		{"query key, browser key dropped", "/proxy/entities/v1/entities:search?query=paris&key=BROWSER&access_token=T",
			http.Header{"Authorization": {"Bearer BROWSER"}, "Cookie": {"loupe_session=abc"}},
			"/base/v1/entities:search", "key=" + entitiesKey + "&query=paris", ""},
		{"bearer, browser bearer replaced", "/proxy/chat/v1/stream?a=1",
			http.Header{"Authorization": {"Bearer BROWSER"}, "X-Api-Key": {"BROWSER"}},
			"/chat/v1/stream", "a=1", "Bearer " + chatKey},
		{"Connection cannot remove the credential", "/proxy/chat/v1/stream",
			http.Header{"Connection": {"Authorization"}},
			"/chat/v1/stream", "", "Bearer " + chatKey},
		{"template path with a colon", "/proxy/script/v1/scripts/abc:run", nil, "/v1/scripts/abc:run", "", "Bearer " + scriptKey},
		{"encoded characters kept", "/proxy/chat/v1/echo/a%20b%40c", nil, "/chat/v1/echo/a b@c", "", "Bearer " + chatKey},
		{"no credential", "/proxy/docs/project/12/", http.Header{"Cookie": {"x=y"}}, "/api/v2/project/12/", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := "GET"
			if strings.Contains(tt.path, ":run") {
				method = "POST"
			}
			resp, _ := h.do(t, method, tt.path, nil, tt.header)
			if resp.StatusCode != 200 {
				t.Fatalf("got status %d; want 200", resp.StatusCode)
			}
			e := h.backend.seen()
			if e.Path != tt.wantPath {
				t.Errorf("path: got %q; want %q", e.Path, tt.wantPath)
			}
			if e.Query != tt.wantQuery {
				t.Errorf("query: got %q; want %q", e.Query, tt.wantQuery)
			}
			if got := e.Header.Get("Authorization"); got != tt.wantAuth {
				t.Errorf("Authorization: got %q; want %q", got, tt.wantAuth)
			}
			for _, name := range []string{"Cookie", "X-Api-Key", "Origin", "Referer"} {
				if got := e.Header.Get(name); got != "" {
					t.Errorf("%s: got %q upstream; want none", name, got)
				}
			}
			if got := resp.Header.Get("Set-Cookie"); got != "" {
				t.Errorf("Set-Cookie: got %q; want it dropped", got)
			}
			if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
				t.Errorf("Access-Control-Allow-Origin: got %q; want it dropped", got)
			}
		})
	}
}

func TestUnknownAPI(t *testing.T) {
	h := newHarness(t, nil)
	resp, body := h.do(t, "GET", "/proxy/weather/v1/today", nil, nil)
	if resp.StatusCode != 404 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("got %d %s; want 404 JSON", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var e errorBody
	if err := json.Unmarshal([]byte(body), &e); err != nil || !strings.Contains(e.Error, `unknown API "weather"`) {
		t.Errorf("got %s; want an error naming the API", body)
	}
}

func TestOperationPolicy(t *testing.T) {
	tests := []struct {
		name       string
		edit       func(*Config)
		method     string
		path       string
		wantStatus int
		wantError  string
		wantOp     string
	}{
		{"documented", nil, "GET", "/proxy/docs/project/7/active_versions/", 200, "", "projectsActiveVersions"},
		{"documented without trailing slash", nil, "GET", "/proxy/docs/project/7", 200, "", "projectsRead"},
		{"server path in front", nil, "GET", "/proxy/docs/api/v2/project/", 200, "", "projectsList"},
		{"HEAD matches GET", nil, "HEAD", "/proxy/docs/project/7/", 200, "", "projectsRead"},
		{"undocumented path", nil, "GET", "/proxy/docs/admin/", 403, "not a documented operation", "-"},
		{"undocumented method", nil, "DELETE", "/proxy/docs/project/7/", 403, "not a documented operation", "-"},
		{"undocumented allowed", func(c *Config) { c.APIs["docs"].AllowUndocumented = true }, "GET", "/proxy/docs/admin/", 200, "", "-"},
		{"not in the allow list", func(c *Config) { c.APIs["docs"].Allow = []string{"projectsList"} }, "GET", "/proxy/docs/project/7/", 403, "operation projectsRead is not allowed", "projectsRead"},
		{"in the allow list", func(c *Config) { c.APIs["docs"].Allow = []string{"projectsRead"} }, "GET", "/proxy/docs/project/7/", 200, "", "projectsRead"},
		{"admin-only, not an admin", func(c *Config) { c.User = func(*http.Request) (string, bool) { return "bob", false } },
			"PUT", "/proxy/script/v1/projects/p1/content", 403, "kept to admins", "projectsUpdateContent"},
		{"admin-only, an admin", func(c *Config) { c.User = func(*http.Request) (string, bool) { return "alice", true } },
			"PUT", "/proxy/script/v1/projects/p1/content", 200, "", "projectsUpdateContent"},
		{"not admin-only, not an admin", func(c *Config) { c.User = func(*http.Request) (string, bool) { return "bob", false } },
			"GET", "/proxy/script/v1/projects/p1", 200, "", "projectsGet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.edit)
			resp, body := h.do(t, tt.method, tt.path, nil, nil)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("got %d %s; want %d", resp.StatusCode, body, tt.wantStatus)
			}
			if tt.wantError != "" && !strings.Contains(body, tt.wantError) {
				t.Errorf("got %s; want an error containing %q", body, tt.wantError)
			}
			if !strings.Contains(h.auditLog(), "operation="+tt.wantOp+" ") {
				t.Errorf("audit: got %s; want operation=%s", h.auditLog(), tt.wantOp)
			}
		})
	}
}

func TestRateLimit(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.Rate, c.Burst = 0.5, 3
		c.User = func(r *http.Request) (string, bool) { return r.Header.Get("X-Test-User"), true }
	})
	alice := http.Header{"X-Test-User": {"alice"}}
	for i := range 3 {
		if resp, _ := h.do(t, "GET", "/proxy/chat/v1/stream", nil, alice); resp.StatusCode != 200 {
			t.Fatalf("call %d: got %d; want 200 within the burst", i+1, resp.StatusCode)
		}
	}
	resp, body := h.do(t, "GET", "/proxy/chat/v1/stream", nil, alice)
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("over the burst: got %d; want 429", resp.StatusCode)
	}
	if got := resp.Header.Get("Retry-After"); got != "2" {
		t.Errorf("Retry-After: got %q; want %q (one token at 0.5/s)", got, "2")
	}
	if !strings.Contains(body, "server.limits.rate") {
		t.Errorf("body: got %s; want it to name server.limits.rate", body)
	}
	if resp, _ := h.do(t, "GET", "/proxy/chat/v1/stream", nil, http.Header{"X-Test-User": {"bob"}}); resp.StatusCode != 200 {
		t.Errorf("another user: got %d; want 200 (limits are per user)", resp.StatusCode)
	}
}

func TestCrossOrigin(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.TrustedOrigins = []string{"https://loupe.example.com"} })
	host := strings.TrimPrefix(h.URL, "http://")
	tests := []struct {
		name   string
		method string
		header http.Header
		want   int
	}{
		{"no Origin (a client library)", "POST", nil, 200},
		{"same origin", "POST", http.Header{"Origin": {"http://" + host}}, 200},
		{"Sec-Fetch-Site same-origin", "POST", http.Header{"Sec-Fetch-Site": {"same-origin"}, "Origin": {"http://" + host}}, 200},
		{"trusted public URL", "POST", http.Header{"Sec-Fetch-Site": {"cross-site"}, "Origin": {"https://loupe.example.com"}}, 200},
		{"another site, POST", "POST", http.Header{"Origin": {"https://evil.example"}}, 403},
		{"another site, GET", "GET", http.Header{"Origin": {"https://evil.example"}}, 403},
		{"Sec-Fetch-Site cross-site, GET", "GET", http.Header{"Sec-Fetch-Site": {"cross-site"}}, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := "/proxy/chat/v1/chat/completions"
			if tt.method == "GET" {
				path = "/proxy/chat/v1/stream"
			}
			resp, body := h.do(t, tt.method, path, strings.NewReader("{}"), tt.header)
			if resp.StatusCode != tt.want {
				t.Errorf("got %d %s; want %d", resp.StatusCode, body, tt.want)
			}
		})
	}
}

func TestRedirects(t *testing.T) {
	h := newHarness(t, nil)
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	noFollow := *h.Client()
	noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	tests := []struct {
		name, to     string
		wantStatus   int
		wantLocation string
	}{
		{"within the base URL", h.backend.URL + "/chat/v1/echo/x?key=" + chatKey + "&a=b", 302, "/proxy/chat/v1/echo/x?a=b"},
		{"relative", "/chat/v1/stream", 302, "/proxy/chat/v1/stream"},
		{"another host", "https://evil.example/chat/v1/stream", 502, ""},
		{"same host, outside the base path", h.backend.URL + "/other", 502, ""},
		{"userinfo", "http://u:p@" + strings.TrimPrefix(h.backend.URL, "http://") + "/chat/x", 502, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := noFollow.Get(h.URL + "/proxy/chat/v1/redirect?to=" + url.QueryEscape(tt.to))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("got %d; want %d", resp.StatusCode, tt.wantStatus)
			}
			if got := resp.Header.Get("Location"); got != tt.wantLocation {
				t.Errorf("Location: got %q; want %q", got, tt.wantLocation)
			}
		})
	}
}

func TestReloadRotatesTheCredential(t *testing.T) {
	h := newHarness(t, nil)
	h.do(t, "GET", "/proxy/chat/v1/stream", nil, nil)
	if got := h.backend.seen().Header.Get("Authorization"); got != "Bearer "+chatKey {
		t.Fatalf("before: got %q", got)
	}
	apis := testAPIs(h.backend.URL)
	apis["chat"].Apply = func(r *http.Request) { r.Header.Set("Authorization", "Bearer rotated-key") }
	h.proxy.SetAPIs(apis, testCatalog)
	h.do(t, "GET", "/proxy/chat/v1/stream", nil, nil)
	if got, want := h.backend.seen().Header.Get("Authorization"), "Bearer rotated-key"; got != want {
		t.Errorf("after: got %q; want %q", got, want)
	}
}

// The header lists are deleted by exact key (dropHeaders), as Del would delete them: they must
// be canonical.
func TestDroppedHeadersAreCanonical(t *testing.T) {
	for _, name := range append(append([]string{}, droppedRequestHeaders...), droppedResponseHeaders...) {
		if c := http.CanonicalHeaderKey(name); c != name {
			t.Errorf("%q is not canonical (%q)", name, c)
		}
	}
}

func TestTheAuditLineOfARefusedCallNamesTheUser(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.User = func(r *http.Request) (string, bool) { return r.Header.Get("X-Test-User"), false }
	})
	tests := []struct {
		name, path string
		wantStatus int
	}{
		{"unknown API", "/proxy/nope/v1", http.StatusNotFound},
		{"a path that climbs out", "/proxy/chat/v1/%2e%2e/admin", http.StatusBadRequest},
		{"an undocumented operation", "/proxy/chat/v1/nowhere", http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.auditMu.Lock()
			h.audit.Reset()
			h.auditMu.Unlock()
			resp, _ := h.do(t, "GET", tt.path, nil, http.Header{"X-Test-User": {"carol"}})
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status: got %d; want %d", resp.StatusCode, tt.wantStatus)
			}
			if got := h.auditLog(); !strings.Contains(got, "user=carol ") {
				t.Errorf("audit: got %s; want user=carol", got)
			}
		})
	}
}
