package pagination

import (
	"net/http"
	"testing"
)

func TestRouting(t *testing.T) {
	h := mounted(Options{})
	tests := []struct {
		name, method, path string
		wantStatus         int
		wantBody           string
		wantAllow          string
	}{
		{"POST", http.MethodPost, PageNumberPath, 405, `{"detail":"Method \"POST\" not allowed."}`, "GET, HEAD"},
		{"DELETE", http.MethodDelete, CursorPath, 405, `{"detail":"Method \"DELETE\" not allowed."}`, "GET, HEAD"},
		{"PUT", http.MethodPut, LimitOffsetPath, 405, `{"detail":"Method \"PUT\" not allowed."}`, "GET, HEAD"},
		{"unknown path", http.MethodGet, "/things/", 404, `{"detail":"Not found."}`, ""},
		{"GET on the insert call", http.MethodGet, "/items/", 405, `{"detail":"Method \"GET\" not allowed."}`, "POST, OPTIONS"},
		{"GET on the delete call", http.MethodGet, "/items/3/", 405, `{"detail":"Method \"GET\" not allowed."}`, "DELETE, OPTIONS"},
		{"deeper than an item", http.MethodDelete, "/items/3/x/", 404, `{"detail":"Not found."}`, ""},
		{"no trailing slash", http.MethodGet, "/page-number/items", 404, `{"detail":"Not found."}`, ""},
		{"root", http.MethodGet, "/", 404, `{"detail":"Not found."}`, ""},
		{"unknown path, POST", http.MethodPost, "/nope", 404, `{"detail":"Not found."}`, ""},
		{"HEAD", http.MethodHead, LimitOffsetPath, 200, "", ""},
		{"bad page, HEAD", http.MethodHead, PageNumberPath + "?page=x", 404, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := serve(t, h, tt.method, base+tt.path, nil)
			if w.Code != tt.wantStatus {
				t.Errorf("status: got %d; want %d", w.Code, tt.wantStatus)
			}
			if tt.method != http.MethodHead {
				if got := w.Body.String(); got != tt.wantBody {
					t.Errorf("body: got %s; want %s", got, tt.wantBody)
				}
			}
			if got := w.Header().Get("Allow"); got != tt.wantAllow {
				t.Errorf("Allow: got %q; want %q", got, tt.wantAllow)
			}
			if got := w.Header().Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type: got %q; want application/json", got)
			}
		})
	}
}

func TestNoCredentialNeeded(t *testing.T) {
	h := mounted(Options{})
	for _, p := range []string{PageNumberPath, LimitOffsetPath, CursorPath} {
		r := serve(t, h, http.MethodGet, base+p, http.Header{"Authorization": {"Bearer whatever"}})
		if r.Code != 200 {
			t.Errorf("%s with a stray Authorization: got %d; want 200", p, r.Code)
		}
	}
}

func TestDefaultItems(t *testing.T) {
	items := DefaultItems()
	if len(items) != 95 {
		t.Fatalf("len: got %d; want 95", len(items))
	}
	for _, tt := range []struct {
		i                 int
		wantName, wantDay string
	}{{0, "Item 1", "2026-01-01T10:00:00Z"}, {10, "Item 11", "2026-01-11T10:00:00Z"}, {85, "Item 86", "2026-03-27T10:00:00Z"}, {94, "Item 95", "2026-04-05T10:00:00Z"}} {
		it := items[tt.i]
		if it.ID != tt.i+1 || it.Name != tt.wantName || it.Created.Format("2006-01-02T15:04:05Z07:00") != tt.wantDay {
			t.Errorf("item %d: got %+v; want %s created %s", tt.i+1, it, tt.wantName, tt.wantDay)
		}
	}
}
