package docs

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHTTPClientPagesThrough is a plain HTTP client as DRF clients are
// written: it asks a real server for the first page and follows next until
// null, and wants every item of the list once and count items in all.
func TestHTTPClientPagesThrough(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/sandbox/docs/", mounted(Options{}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	lists := []struct {
		path    string
		atLeast int
	}{
		{"/api/v2/project/?limit=7", 20},
		{"/api/v2/project/?page=1", 20},
		{"/api/v2/version/?limit=50", 300},
		{"/api/v2/version/?project__slug=tidewater&active=true", 10},
		{"/api/v2/build/?limit=100", 2000},
		{"/api/v2/build/?project__slug=quill-orm&limit=25", 100},
	}
	for _, l := range lists {
		t.Run(l.path, func(t *testing.T) {
			next := srv.URL + "/sandbox/docs" + l.path
			seen := map[int]bool{}
			count, pages := -1, 0
			for next != "" {
				if pages++; pages > 1000 {
					t.Fatal("more than 1000 pages")
				}
				if !strings.HasPrefix(next, srv.URL+"/sandbox/docs/api/v2/") {
					t.Fatalf("next %s: not on the server the client asked", next)
				}
				resp, err := http.Get(next)
				if err != nil {
					t.Fatal(err)
				}
				var p struct {
					Count   int     `json:"count"`
					Next    *string `json:"next"`
					Results []struct {
						ID int `json:"id"`
					} `json:"results"`
				}
				err = json.NewDecoder(resp.Body).Decode(&p)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK {
					t.Fatalf("GET %s: %d, %v", next, resp.StatusCode, err)
				}
				if count >= 0 && p.Count != count {
					t.Fatalf("count changed between pages: %d, then %d", count, p.Count)
				}
				count = p.Count
				for _, r := range p.Results {
					if seen[r.ID] {
						t.Fatalf("item %d seen twice", r.ID)
					}
					seen[r.ID] = true
				}
				next = ""
				if p.Next != nil {
					next = *p.Next
				}
			}
			if len(seen) != count || count < l.atLeast {
				t.Errorf("items: got %d of count %d; want all, at least %d", len(seen), count, l.atLeast)
			}
			t.Logf("%d items in %d pages", len(seen), pages)
		})
	}
}
