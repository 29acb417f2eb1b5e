package op

import (
	"html"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/internal/apptest"
)

// TestProxyErrorIsNotTheAPIs: an answer Loupe's proxy wrote (X-Loupe-Error: proxy) says the
// proxy refused it or could not reach the API, with what to check; an API's own error of the
// same status is still the API's.
func TestProxyErrorIsNotTheAPIs(t *testing.T) {
	proxy := []fetch.Header{{Name: "content-type", Value: "application/json"}, {Name: "x-loupe-error", Value: "proxy"}}
	api := []fetch.Header{{Name: "content-type", Value: "application/json"}}
	for _, tc := range []struct {
		name    string
		status  int
		headers []fetch.Header
		body    string
		want    []string
		notWant []string
	}{
		{"the allow-list", 403, proxy,
			`{"error":"chat: operation createChatCompletion is not allowed here","api":"chat","check":"apis.chat.allow in the configuration","source":"loupe proxy"}`,
			[]string{"Refused by Loupe's proxy, not by the API: chat: operation createChatCompletion is not allowed here",
				"Check:", "apis.chat.allow in the configuration", "HTTP 403 Forbidden from Loupe's proxy", "never reached the API"},
			[]string{"the API refused"}},
		{"the path guard", 400, proxy,
			`{"error":"encoded slash in the path","check":"send the path of a documented operation as is: /proxy/<api>/<path>","source":"loupe proxy"}`,
			[]string{"Refused by Loupe's proxy", "encoded slash in the path", "Check:", "send the path of a documented"}, []string{"the API refused"}},
		{"a missing sign-in", 401, proxy, `{"error":"script: sign in first","check":"the Sign in button","source":"loupe proxy"}`,
			[]string{"Refused by Loupe's proxy", "sign in first"}, []string{"did not accept the credential"}},
		{"the API unreachable", 502, proxy,
			`{"error":"chat: could not get an answer from https://api.v0.dev (connection refused)","check":"that the API is running (apis.chat.base_url)","source":"loupe proxy"}`,
			[]string{"Loupe's proxy could not get an answer from the API: chat: could not get an answer", "HTTP 502 Bad Gateway from Loupe's proxy"}, nil},
		{"the API's own 403", 403, api, `{"error":{"code":403,"message":"The caller does not have permission","status":"PERMISSION_DENIED"}}`,
			[]string{"The caller does not have permission", "HTTP 403 Forbidden — "}, []string{"Loupe's proxy"}},
		{"the API's own 502", 502, api, `{"error":{"message":"upstream connect error"}}`,
			[]string{"upstream connect error", "a gateway in front of it"}, []string{"Loupe's proxy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &responsePanel{Op: &catalog.Operation{ID: "x"}, Result: &Exchange{Method: "GET", URL: "/proxy/x", Status: tc.status, Headers: tc.headers, Body: []byte(tc.body)}}
			out := html.UnescapeString(apptest.RenderUI(t, p))
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("got no %q in\n%s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("got %q in\n%s", w, out)
				}
			}
		})
	}
}
