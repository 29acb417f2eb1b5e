package server

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"loupe/app/request"
	"loupe/server/sandbox/state"
)

// TestEveryOperationAnswersItsUntouchedForm sends every operation of the catalog the way a
// newcomer first does: on fresh sandboxes, the form as it opens (required parameters filled
// from the examples, the example body), through the proxy, to the built-in sandboxes. Each
// must succeed. The operations run side by side on one server, each as a browser of its own
// (no cookie yet: the sandboxes of a new session, which the answer's cookie shows), as
// isolated as a server of its own each made them, without its half a second of CPU.
func TestEveryOperationAnswersItsUntouchedForm(t *testing.T) {
	srv, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	for _, api := range srv.catalog.APIs {
		for i := range api.Operations {
			op := &api.Operations[i]
			t.Run(api.Slug+"/"+op.ID, func(t *testing.T) {
				t.Parallel()
				base := ts.URL
				req, errs := request.Build(op, base+"/proxy/"+api.Slug, request.Initial(op))
				if len(errs) > 0 {
					t.Fatalf("the untouched form is invalid: %v", errs)
				}
				hr, err := http.NewRequest(req.Method, req.URL, bytes.NewReader(req.Body))
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range req.Headers {
					hr.Header.Add(h.Name, h.Value)
				}
				// As the playground's page sends it: a browser without a cookie yet, which the
				// server gives a session of its own (a program without one shares its address's).
				hr.Header.Set("Sec-Fetch-Site", "same-origin")
				resp, err := http.DefaultClient.Do(hr)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode/100 != 2 {
					t.Errorf("%s %s: got %d %.300s; want a 2xx answer", req.Method, req.URL, resp.StatusCode, body)
				}
				if !newSession(resp) {
					t.Errorf("%s %s: the answer set no %s cookie; want the sandboxes of a new session", req.Method, req.URL, state.CookieName)
				}
			})
		}
	}
}

// newSession reports whether resp opened a sandbox session (it sets the session's cookie).
func newSession(resp *http.Response) bool {
	for _, c := range resp.Cookies() {
		if c.Name == state.CookieName && c.Value != "" {
			return true
		}
	}
	return false
}
