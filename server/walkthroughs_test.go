package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loupe/server/config"
)

// walkDoc is a walkthrough of the built-in docs API.
func walkDoc(title string) string {
	return `arazzo: 1.0.1
info: {title: ` + title + `, version: 1.0.0}
sourceDescriptions:
  - {name: docs, url: ./docs.yaml, type: openapi}
workflows:
  - workflowId: find
    steps:
      - stepId: list
        operationId: listProjects
        successCriteria:
          - condition: $statusCode == 200
`
}

// TestConfiguredWalkthroughsReload serves the walkthroughs of the walkthroughs key beside the
// built-in ones, in the catalog and the runner; a reload adds a new document, and a broken one
// is refused with its place while the served ones stay.
func TestConfiguredWalkthroughsReload(t *testing.T) {
	dir := t.TempDir()
	walks := filepath.Join(dir, "walks")
	os.MkdirAll(walks, 0o755)
	os.WriteFile(filepath.Join(walks, "first.arazzo.yaml"), []byte(walkDoc("First of mine")), 0o644)
	yaml := []byte("walkthroughs:\n  - path: " + walks + "\n")
	cfg, err := config.Parse(yaml, "loupe.yaml", os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Settings: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	catalogHas := func(want string) bool {
		res, err := http.Get(ts.URL + "/catalog.json")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return strings.Contains(string(b), want)
	}
	if srv.Walkthroughs().Get("first") == nil || srv.Walkthroughs().Get("docs-find-a-section") == nil || !catalogHas(`"title":"First of mine"`) {
		t.Fatalf("got walkthroughs %v; want the built-in ones and first, in the catalog too", srv.Walkthroughs().IDs())
	}
	os.WriteFile(filepath.Join(walks, "second.arazzo.yaml"), []byte(walkDoc("Second of mine")), 0o644)
	next, err := config.Parse(yaml, "loupe.yaml", os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Reload(next); err != nil {
		t.Fatal(err)
	}
	if srv.Walkthroughs().Get("second") == nil || !catalogHas(`"title":"Second of mine"`) {
		t.Errorf("after a reload got %v; want second served and listed", srv.Walkthroughs().IDs())
	}
	// The page of the new walkthrough is prerendered from the reloaded catalog, and its
	// document is served for download.
	for path, want := range map[string]string{"/walkthroughs/second": "<h1>Second of mine</h1>", "/arazzo/second.arazzo.yaml": "title: Second of mine"} {
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(b), want) {
			t.Errorf("GET %s after a reload: got %d, %d bytes without %q; want 200 with it", path, res.StatusCode, len(b), want)
		}
	}
	res, err := http.Post(ts.URL+"/walkthroughs/second/run", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(b), `"operationId":"listProjects"`) {
		t.Errorf("the runner of second answered %s; want its first call", b)
	}
	os.WriteFile(filepath.Join(walks, "third.arazzo.yaml"), []byte(strings.Replace(walkDoc("Broken"), "listProjects", "nope", 1)), 0o644)
	next, _ = config.Parse(yaml, "loupe.yaml", os.LookupEnv)
	err = srv.Reload(next)
	if err == nil || !strings.Contains(err.Error(), `third.arazzo.yaml:9: /workflows/0/steps/0/operationId: step list: "nope" is no operation of`) {
		t.Errorf("got %v; want the broken document named with its place", err)
	}
	if srv.Walkthroughs().Get("second") == nil || srv.Walkthroughs().Get("third") != nil {
		t.Errorf("after a refused reload got %v; want the walkthroughs served before", srv.Walkthroughs().IDs())
	}
	os.Remove(filepath.Join(walks, "third.arazzo.yaml"))
	os.WriteFile(filepath.Join(walks, "docs-find-a-section.arazzo.yaml"), []byte(walkDoc("Taken")), 0o644)
	next, _ = config.Parse(yaml, "loupe.yaml", os.LookupEnv)
	if err := srv.Reload(next); err == nil || !strings.Contains(err.Error(), "docs-find-a-section.arazzo.yaml: walkthrough docs-find-a-section is also a built-in one's id") {
		t.Errorf("got %v; want a document named like a built-in walkthrough refused", err)
	}
}
