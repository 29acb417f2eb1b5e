package snippet

import (
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/request"
)

func TestPathParams(t *testing.T) {
	for _, tc := range []struct {
		template, path string
		want           map[string]string
	}{
		{"/v1/projects/{scriptId}/content", "/v1/projects/a%2Fb/content", map[string]string{"scriptId": "a/b"}},
		{"/admin/reports/v1/activity/users/{userKey}/applications/{applicationName}", "/admin/reports/v1/activity/users/all/applications/calendar",
			map[string]string{"userKey": "all", "applicationName": "calendar"}},
		{"/v1/{+name}:run", "/v1/x:run", map[string]string{"name": "x"}},
		{"/a/{id}", "/a/b/c", map[string]string{}},
	} {
		got := pathParams(tc.template, tc.path)
		if len(got) != len(tc.want) {
			t.Errorf("pathParams(%s, %s): got %v; want %v", tc.template, tc.path, got, tc.want)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("pathParams(%s, %s)[%s]: got %q; want %q", tc.template, tc.path, k, got[k], v)
			}
		}
	}
}

func TestKinds(t *testing.T) {
	chat := &catalog.Operation{Path: "/v1/chat/completions"}
	for _, tc := range []struct {
		slug string
		op   *catalog.Operation
		want string
	}{
		{"docs", &catalog.Operation{}, "curl httpie go js python"},
		{"chat", chat, "curl httpie go js python openai-python openai-node"},
		{"entities", &catalog.Operation{}, "curl httpie go js python google-python google-node"},
		{"cluster", &catalog.Operation{}, "curl httpie go js python opensearch-python opensearch-node"},
	} {
		var ids []string
		for _, k := range Kinds(tc.slug, tc.op) {
			ids = append(ids, k.ID)
		}
		if got := strings.Join(ids, " "); got != tc.want {
			t.Errorf("Kinds(%s): got %s; want %s", tc.slug, got, tc.want)
		}
	}
}

// TestNoSnippetHoldsACredential writes every kind for both targets and checks that a real-API
// snippet names the variable, and no snippet holds the placeholder or a value.
func TestNoSnippetHoldsACredential(t *testing.T) {
	req := &request.Request{Method: "POST", URL: "/proxy/chat/v1/chat/completions", Path: "/v1/chat/completions",
		Headers: []fetch.Header{{Name: "Content-Type", Value: "application/json"}}, Body: []byte(`{"stream":true}`)}
	op := &catalog.Operation{ID: "createChatCompletion", Path: "/v1/chat/completions"}
	held := []Credential{{In: "header", Name: "Authorization", Value: "Bearer " + HeldValue}}
	for _, slug := range []string{"chat", "entities", "cluster"} {
		for _, k := range Kinds(slug, op) {
			proxy := Write(k.ID, Target{Proxy: "http://h", Direct: Direct{Prefix: "/proxy/chat", Slug: slug}, Held: held}, op, req)
			real := Write(k.ID, Target{Direct: Direct{BaseURL: "https://api.example", Prefix: "/proxy/chat", Slug: slug, Proxied: true}, Held: held}, op, req)
			if strings.Contains(proxy+real, HeldValue) {
				t.Errorf("%s/%s holds the placeholder:\n%s\n%s", slug, k.ID, proxy, real)
			}
			if v := strings.ToUpper(slug) + "_TOKEN"; !strings.Contains(real, v) || strings.Contains(proxy, v) {
				t.Errorf("%s/%s: want %s in the real-API snippet only:\n%s\n%s", slug, k.ID, v, proxy, real)
			}
			if !strings.Contains(proxy, "http://h/proxy/chat") || strings.Contains(real, "/proxy") {
				t.Errorf("%s/%s: want the proxy's URL in the proxy snippet only:\n%s\n%s", slug, k.ID, proxy, real)
			}
		}
	}
}

func TestHTTPie(t *testing.T) {
	req := &request.Request{Method: "GET", URL: "/proxy/entities/v1/entities:search?query=it%27s"}
	got := HTTPie(Target{Direct: Direct{BaseURL: "https://kgsearch.googleapis.com", Prefix: "/proxy/entities", Slug: "entities", Proxied: true},
		Held: []Credential{{In: "query", Name: "key", Value: HeldValue}}}, req)
	want := "# The page sends this request through Loupe's proxy. This is the same request straight to the real API; set ENTITIES_API_KEY to your credential first.\n" +
		`http --ignore-stdin --check-status GET 'https://kgsearch.googleapis.com/v1/entities:search?query=it%27s&key='"${ENTITIES_API_KEY}"`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
