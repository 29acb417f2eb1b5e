package server

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"loupe/app/snippet"
)

// TestPreviewShowsTheCredentialsSent: for every operation of an API of your own, the
// credentials the request preview and the snippets say the server adds (snippet.Held, from the
// catalog the page reads) are the ones the upstream receives: only some schemes configured, an
// operation whose requirement is not met shows none (the proxy refuses it), security: [] none.
// An API of your own answered by its sandbox with no credential configured shows and sends the
// sandbox's own key for the document's first scheme.
func TestPreviewShowsTheCredentialsSent(t *testing.T) {
	up, got := stubUpstream(t)
	ts := ownServer(t, `
apis:
  sec:
    openapi: testdata/security-and-or.yaml
    base_url: `+up.URL+`
    credentials:
      key: {value: k-1}
      c: {value: c4}
  pets:
    openapi: testdata/petstore-3.0.yaml
`)
	cat := ts.Config.Handler.(*Server).catalog
	api := cat.API("sec")
	for _, op := range api.Operations {
		var shown []string
		for _, c := range snippet.Held(api, &op) {
			shown = append(shown, c.String())
		}
		req, _ := http.NewRequest(op.Method, ts.URL+"/proxy/sec"+op.Path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		var sent []string
		if resp.StatusCode == 200 {
			s := <-got
			for _, h := range []string{"X-Key", "X-Secret", "Authorization"} {
				if v := s.header.Get(h); v != "" {
					sent = append(sent, h+": "+snippet.HeldValue)
				}
			}
			if v := s.header.Get("Cookie"); v != "" {
				sent = append(sent, "Cookie: "+strings.Replace(v, "c4", snippet.HeldValue, 1))
			}
			if q, _ := url.ParseQuery(s.query); q.Get("api_key") != "" {
				sent = append(sent, "api_key="+snippet.HeldValue)
			}
		} else if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: got %d; want 200, or 401 for a requirement not met", op.ID, resp.StatusCode)
		}
		if !slices.Equal(shown, sent) {
			t.Errorf("%s (%d): the preview shows %q; the upstream got %q", op.ID, resp.StatusCode, shown, sent)
		}
	}
	pets := cat.API("pets")
	var shown []string
	for _, c := range snippet.Held(pets, pets.Operation("listPets")) {
		shown = append(shown, c.String())
	}
	if !pets.SecurityPerOperation || !slices.Equal(shown, []string{"X-Store-Key: " + snippet.HeldValue}) {
		t.Errorf("the own sandbox's listPets shows %q (per operation %v); want the sandbox key in X-Store-Key", shown, pets.SecurityPerOperation)
	}
	if r := do(t, "GET", ts.URL+"/proxy/pets/pets", ""); r.StatusCode != 200 {
		t.Errorf("the own sandbox's listPets: got %d %s; want 200 (the proxy sends its key)", r.StatusCode, r.body)
	}
}
