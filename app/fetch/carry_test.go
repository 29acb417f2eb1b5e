package fetch

import (
	"slices"
	"testing"
)

func TestToProxy(t *testing.T) {
	for _, tc := range []struct {
		url, base string
		want      bool
	}{
		{"/proxy/cluster/_cluster/health", "", true},
		{"/site/proxy/cluster/_cluster/health", "/site", true},
		{"/catalog.json", "", false},
		{"/proxy", "", false},
		{"https://api.example.com/proxy/x", "", false},
		{"/other/proxy/x", "/site", false},
	} {
		if got := toProxy(tc.url, tc.base); got != tc.want {
			t.Errorf("toProxy(%q, %q): got %v; want %v", tc.url, tc.base, got, tc.want)
		}
	}
}

func TestRestoreCarried(t *testing.T) {
	for _, tc := range []struct {
		name        string
		status      int
		headers     []Header
		wantStatus  int
		wantText    string
		wantHeaders []Header
	}{
		{"a carried 408 is restored and its header dropped", 200,
			[]Header{{"content-type", "application/json"}, {"x-loupe-upstream-status", "408"}, {"x-a", "b"}},
			408, "Request Timeout", []Header{{"content-type", "application/json"}, {"x-a", "b"}}},
		{"no header: as it came", 200, []Header{{"content-type", "application/json"}},
			200, "OK", []Header{{"content-type", "application/json"}}},
		{"a header that is no status is dropped, the status kept", 200, []Header{{"X-Loupe-Upstream-Status", "soon"}},
			200, "OK", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Response{Status: tc.status, StatusText: "OK", Headers: tc.headers}
			r.restoreCarried()
			if r.Status != tc.wantStatus || r.StatusText != tc.wantText {
				t.Errorf("status: got %d %q; want %d %q", r.Status, r.StatusText, tc.wantStatus, tc.wantText)
			}
			if !slices.Equal(r.Headers, tc.wantHeaders) {
				t.Errorf("headers: got %v; want %v", r.Headers, tc.wantHeaders)
			}
		})
	}
}
