package server

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"loupe/app/request"
)

// TestEveryOperationAnswersItsUntouchedForm sends every operation of the catalog the way a
// newcomer first does: on a fresh server, the form as it opens (required parameters filled
// from the examples, the example body), through the proxy, to the built-in sandboxes. Each
// must succeed. The operations run side by side, each on a server of its own.
func TestEveryOperationAnswersItsUntouchedForm(t *testing.T) {
	srv, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, api := range srv.catalog.APIs {
		for i := range api.Operations {
			op := &api.Operations[i]
			t.Run(api.Slug+"/"+op.ID, func(t *testing.T) {
				t.Parallel()
				base := startTestServer(t)
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
				resp, err := http.DefaultClient.Do(hr)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode/100 != 2 {
					t.Errorf("%s %s: got %d %.300s; want a 2xx answer", req.Method, req.URL, resp.StatusCode, body)
				}
			})
		}
	}
}
