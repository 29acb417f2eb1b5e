package proxy

import (
	"compress/gzip"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"loupe/app/catalog"
)

// encodedCatalog documents the path keys real documents write.
var encodedCatalog = &catalog.Catalog{APIs: []catalog.API{{Slug: "own", Operations: []catalog.Operation{
	{ID: "file", Method: "GET", Path: "/projects/{id}/files/{file_path}"},
	{ID: "name", Method: "GET", Path: "/v1/{+name}"},
	{ID: "topics", Method: "GET", Path: "/v2/{parent=projects/*}/topics"},
	{ID: "object", Method: "GET", Path: "/b/{bucket}/o/{object}"},
	{ID: "matrix", Method: "GET", Path: "/m/{color}", Parameters: []catalog.Parameter{{Name: "color", In: "path", Style: "matrix"}}},
	{ID: "describe", Method: "GET", Path: "/#Action=Describe"},
	{ID: "target", Method: "POST", Path: "/#X-Amz-Target=Svc.Do"},
	{ID: "label", Method: "GET", Path: "/files/{id}#label"},
	{ID: "compressed", Method: "GET", Path: "/enc", Parameters: []catalog.Parameter{{Name: "Accept-Encoding", In: "header"}}},
	{ID: "plain", Method: "GET", Path: "/plain"},
	{ID: "locked", Method: "GET", Path: "/locked"},
	{ID: "keyed", Method: "GET", Path: "/keyed"},
}}}}

func encodedHarness(t *testing.T) *harness {
	return newHarnessWith(t, func(c *Config, b *backend) {
		u, _ := url.Parse(b.URL + "/base")
		c.Catalog = encodedCatalog
		c.APIs = map[string]*API{"own": {BaseURL: u, CredentialParams: []string{"token"}, OperationAuth: map[string]OpAuth{
			"locked": {Missing: "GET /locked needs the security scheme hmac, which Loupe's proxy cannot compute"},
			"keyed":  {Apply: func(r *http.Request) { r.Header.Set("X-Key", "k1"); r.Header.Set("X-Secret", "k2") }},
			"plain":  {},
		}}}
	})
}

// TestDocumentedEncodingsPass: an encoded slash inside a parameter's value, a value a
// reserved expansion or Google template spans segments with, percent-encoded UTF-8, a matrix
// parameter and a key's fixed query pair are all forwarded as they were sent.
func TestDocumentedEncodingsPass(t *testing.T) {
	h := encodedHarness(t)
	tests := []struct{ target, op, wantRaw string }{
		{"/projects/group%2Fsub%2Fproj/files/dir%2Ffile.txt", "file", "/base/projects/group%2Fsub%2Fproj/files/dir%2Ffile.txt"},
		{"/v1/projects/p/locations/l", "name", "/base/v1/projects/p/locations/l"},
		{"/v2/projects/p/topics", "topics", "/base/v2/projects/p/topics"},
		{"/b/b/o/a%2Fb%20c%C3%A9.txt", "object", "/base/b/b/o/a%2Fb%20c%C3%A9.txt"},
		{"/m/;color=blue,black", "matrix", "/base/m/;color=blue,black"},
		{"/?Action=Describe&Version=1", "describe", "/base/"},
		{"/files/7", "label", "/base/files/7"},
	}
	for _, tt := range tests {
		resp, body := h.do(t, "GET", "/proxy/own"+tt.target, nil, nil)
		if resp.StatusCode != 200 {
			t.Errorf("%s: got %d %s; want 200", tt.target, resp.StatusCode, body)
			continue
		}
		if got := h.backend.seen().Raw; got != tt.wantRaw {
			t.Errorf("%s: upstream path %q; want %q", tt.target, got, tt.wantRaw)
		}
		if !strings.Contains(h.auditLog(), "operation="+tt.op) {
			t.Errorf("%s: the audit does not name operation %s", tt.target, tt.op)
		}
	}
}

// TestFixedPairInAHeader: AWS's JSON APIs name the operation in the X-Amz-Target header.
func TestFixedPairInAHeader(t *testing.T) {
	h := encodedHarness(t)
	if resp, body := h.do(t, "POST", "/proxy/own/", nil, http.Header{"X-Amz-Target": {"Svc.Do"}}); resp.StatusCode != 200 || !strings.Contains(h.auditLog(), "operation=target") {
		t.Errorf("with the header: got %d %s; want 200 for operation target", resp.StatusCode, body)
	}
	if resp, _ := h.do(t, "POST", "/proxy/own/", nil, http.Header{"X-Amz-Target": {"Svc.Other"}}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("with another target: got %d; want 403", resp.StatusCode)
	}
}

// TestEncodedTricksAreRefused: what the guard refuses stays refused where a parameter may
// hold an encoded slash: dot and empty segments once decoded, encoded slashes and semicolons
// outside a value, semicolons in a value that is not matrix, overlong UTF-8, look-alikes.
func TestEncodedTricksAreRefused(t *testing.T) {
	h := encodedHarness(t)
	for _, target := range []string{
		"/projects/..%2F..%2Fadmin/files/x",
		"/projects/a%2F..%2Fb/files/x",
		"/projects/a%2F%2Fb/files/x",
		"/projects/%2Fetc/files/x",
		"/projects/x/files/a%2F.",
		"/projects%2Fx/files/y",
		"/v1/../admin",
		"/v1/a//b",
		"/v1/a/%2e%2e/b",
		"/b/b/o/x;y",
		"/b/b/o/x%3B..%2Fy",
		"/b/b/o/%C0%AE%C0%AE",
		"/b/b/o/%EF%BC%8E%EF%BC%8E",
		"/b/b/o/%E2%88%95etc",
		"/v2/projects/p/q/topics",
		"/?Action=Other",
		"/m/;color=a/x",
		"/plain;x",
	} {
		resp, body := h.do(t, "GET", "/proxy/own"+target, nil, nil)
		if resp.StatusCode < 400 || resp.StatusCode > 499 {
			t.Errorf("%s: got %d %s; want a 4xx refusal", target, resp.StatusCode, body)
		}
	}
	if n := h.backend.hits.Load(); n != 0 {
		t.Errorf("the upstream got %d requests; want none", n)
	}
}

// TestOperationSecurity: each operation gets its own credentials (several at once, none for
// security: []), one that needs what cannot be sent is refused saying so, the user's query
// keeps its order without the credential parameters, its cookie parameters go as Cookie, and
// a documented Accept-Encoding goes upstream with the answer decoded before it is masked.
func TestOperationSecurity(t *testing.T) {
	h := encodedHarness(t)
	resp, _ := h.do(t, "GET", "/proxy/own/keyed?b=2&token=evil&a=1&key=x", nil, http.Header{CookieHeader: {"sid=1; theme=dark"}})
	seen := h.backend.seen()
	if resp.StatusCode != 200 || seen.Header.Get("X-Key") != "k1" || seen.Header.Get("X-Secret") != "k2" || seen.Query != "b=2&a=1" || seen.Header.Get("Cookie") != "sid=1; theme=dark" || seen.Header.Get(CookieHeader) != "" {
		t.Errorf("keyed: got %d, headers %v, query %q; want both keys, b=2&a=1 and the cookies", resp.StatusCode, seen.Header, seen.Query)
	}
	h.do(t, "GET", "/proxy/own/plain", nil, http.Header{"Authorization": {"Bearer browser"}})
	if seen := h.backend.seen(); seen.Header.Get("Authorization") != "" || seen.Header.Get("X-Key") != "" {
		t.Errorf("plain: upstream got %v; want no credential", seen.Header)
	}
	before := h.backend.hits.Load()
	resp, body := h.do(t, "GET", "/proxy/own/locked", nil, nil)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "hmac") || !strings.Contains(body, "apis.own.credentials") || h.backend.hits.Load() != before {
		t.Errorf("locked: got %d %s; want 401 naming the scheme and the setting, and no upstream call", resp.StatusCode, body)
	}

	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("X-Got-Accept-Encoding", r.Header.Get("Accept-Encoding"))
		zw := gzip.NewWriter(w)
		zw.Write([]byte("decoded text"))
		zw.Close()
	})
	resp, body = h.do(t, "GET", "/proxy/own/enc", nil, http.Header{AcceptEncodingHeader: {"gzip"}})
	if resp.StatusCode != 200 || body != "decoded text" || resp.Header.Get("X-Got-Accept-Encoding") != "gzip" {
		t.Errorf("compressed: got %d %q (upstream asked with %q); want 200, the text decoded, gzip asked", resp.StatusCode, body, resp.Header.Get("X-Got-Accept-Encoding"))
	}
}
