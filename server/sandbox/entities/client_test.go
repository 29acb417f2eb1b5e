package entities

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"google.golang.org/api/googleapi"
	kgsearch "google.golang.org/api/kgsearch/v1"
	"google.golang.org/api/option"
)

// clientTarget is a base URL the official client is pointed at. The
// integrator adds a second entry that goes through the real proxy.
type clientTarget struct {
	name  string
	start func(t *testing.T) (baseURL string) // returns a URL ending in "/"
}

// clientTargets lists the ways to reach the sandbox.
var clientTargets = []clientTarget{
	{"sandbox", func(t *testing.T) string {
		mux := http.NewServeMux()
		mux.Handle("/sandbox/entities/", http.StripPrefix("/sandbox/entities", newTestHandler(t)))
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		return srv.URL + "/sandbox/entities/"
	}},
}

// resultIDs returns the @id of each item of an official-client response.
func resultIDs(t *testing.T, resp *kgsearch.SearchResponse) []string {
	t.Helper()
	var out []string
	for i, it := range resp.ItemListElement {
		m, ok := it.(map[string]any)
		if !ok {
			t.Fatalf("item %d: %T; want an object", i, it)
		}
		if _, ok := m["resultScore"].(float64); !ok {
			t.Errorf("item %d: resultScore %v; want a number", i, m["resultScore"])
		}
		r, _ := m["result"].(map[string]any)
		id, _ := r["@id"].(string)
		out = append(out, id)
	}
	return out
}

// TestOfficialClient drives the sandbox with google.golang.org/api/kgsearch/v1.
func TestOfficialClient(t *testing.T) {
	for _, target := range clientTargets {
		t.Run(target.name, func(t *testing.T) {
			ctx := context.Background()
			base := target.start(t)
			svc, err := kgsearch.NewService(ctx, option.WithEndpoint(base), option.WithAPIKey(testKey))
			if err != nil {
				t.Fatalf("NewService: %v", err)
			}
			tests := []struct {
				name    string
				call    *kgsearch.EntitiesSearchCall
				wantIDs []string // exact list, or nil to check only the first
				first   string
				count   int
			}{
				{name: "query", call: svc.Entities.Search().Query("taylor swift").Limit(1), wantIDs: []string{"kg:/m/0dl567"}},
				{name: "ids", call: svc.Entities.Search().Ids("/m/0dl567", "/m/0lc_fra"), wantIDs: []string{"kg:/m/0dl567", "kg:/m/0lc_fra"}},
				{name: "types", call: svc.Entities.Search().Query("paris").Types("Event"), first: "kg:/m/0lx_paris_2024"},
				{name: "limit", call: svc.Entities.Search().Query("capital").Limit(7), count: 7},
				{name: "default limit", call: svc.Entities.Search().Query("capital"), count: 20},
				{name: "prefix and languages", call: svc.Entities.Search().Query("vien").Prefix(true).Languages("de"), first: "kg:/m/0lt_aut"},
				{name: "indent", call: svc.Entities.Search().Query("france").Indent(true).Limit(1), wantIDs: []string{"kg:/m/0lc_fra"}},
			}
			for _, tt := range tests {
				resp, err := tt.call.Context(ctx).Do()
				if err != nil {
					t.Errorf("%s: Do: %v", tt.name, err)
					continue
				}
				got := resultIDs(t, resp)
				switch {
				case tt.wantIDs != nil && !reflect.DeepEqual(got, tt.wantIDs):
					t.Errorf("%s: got %v; want %v", tt.name, got, tt.wantIDs)
				case tt.first != "" && (len(got) == 0 || got[0] != tt.first):
					t.Errorf("%s: got %v; want %s first", tt.name, got, tt.first)
				case tt.count != 0 && len(got) != tt.count:
					t.Errorf("%s: got %d results; want %d", tt.name, len(got), tt.count)
				}
			}

			// Errors surface as *googleapi.Error with the API's code and message.
			bad, err := kgsearch.NewService(ctx, option.WithEndpoint(base), option.WithAPIKey("wrong"))
			if err != nil {
				t.Fatalf("NewService: %v", err)
			}
			errTests := []struct {
				name     string
				call     *kgsearch.EntitiesSearchCall
				wantCode int
				wantMsg  string
			}{
				{"wrong key", bad.Entities.Search().Query("paris"), 400, "API key not valid. Please pass a valid API key."},
				{"limit too high", svc.Entities.Search().Query("paris").Limit(501), 400, "Invalid value at 'limit': 501. The limit must be between 1 and 500."},
			}
			for _, tt := range errTests {
				_, err := tt.call.Context(ctx).Do()
				var gerr *googleapi.Error
				if !errors.As(err, &gerr) || gerr.Code != tt.wantCode || gerr.Message != tt.wantMsg {
					t.Errorf("%s: got %v; want googleapi.Error %d %q", tt.name, err, tt.wantCode, tt.wantMsg)
				}
			}
		})
	}
}
