package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestUnknownPagesAnswer404 asks for pages that exist and pages that do not: an unknown page
// answers 404 with the app's not-found page, a known one 200, go-app's own files 200.
func TestUnknownPagesAnswer404(t *testing.T) {
	base := startTestServer(t)
	tests := []struct {
		path     string
		status   int
		contains string
	}{
		{"/", 200, "Loupe"},
		{"/entities", 200, "Entity"},
		{"/entities/entities.search", 200, "entities.search"},
		{"/docs/listProjects/", 200, "listProjects"},
		{"/no-such-api", 404, "Not found"},
		{"/nosuchapi", 404, "Not found"},
		{"/entities/noSuchOperation", 404, "Not found"},
		{"/a/b/c", 404, "Not found"},
		{"/script/workspace", 200, "Workspace"},
		{"/walkthroughs/entities-search-then-lookup", 200, "Loupe"},
		{"/walkthroughs/no-such-walkthrough", 404, "Not found"},
		{"/docs/workspace", 404, "Not found"},
		{"/app.js", 200, ""},
		{"/manifest.webmanifest", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res, err := http.Get(base + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.status || !strings.Contains(string(body), tt.contains) {
				t.Errorf("GET %s: got %d (%d bytes, says %q: %v); want %d", tt.path, res.StatusCode, len(body), tt.contains, strings.Contains(string(body), tt.contains), tt.status)
			}
		})
	}
}
