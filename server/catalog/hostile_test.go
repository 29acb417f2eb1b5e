package catalog

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loupe/app/catalog"
)

// loadOne loads one document of your own as the server does (LoadOwn) and returns its API, or
// the error that stops the start.
func loadOne(t *testing.T, path string, lim Limits) (*catalog.API, error) {
	t.Helper()
	c := &catalog.Catalog{}
	if _, err := LoadOwn(c, []Own{{Slug: "own", Path: path, Key: "apis.own.openapi"}}, lim); err != nil {
		return nil, err
	}
	return c.API("own"), nil
}

// writeDoc writes a document into a fresh directory and returns its path.
func writeDoc(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const okDoc = `openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a:
    get:
      responses: {'200': {description: ok}}
`

// TestBadDocumentsRefused: a truncated, an invalid and a hostile document (an alias bomb, a
// 500 MB file, one that takes too long) each stop the start with a message naming the
// setting, and the place in the document where there is one.
func TestBadDocumentsRefused(t *testing.T) {
	laughs := "openapi: 3.0.3\ninfo: {title: lol, version: '1'}\nx-lol:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	for i := 1; i < 10; i++ {
		laughs += "  l" + itoa(i) + ": &l" + itoa(i) + " [" + strings.TrimSuffix(strings.Repeat("*l"+itoa(i-1)+", ", 10), ", ") + "]\n"
	}
	laughs += "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content: {application/json: {example: *l9}}\n"
	huge := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(500 << 20); err != nil { // sparse: nothing is written
		t.Fatal(err)
	}
	f.Close()
	tests := []struct {
		name, path string
		lim        Limits
		want       []string
	}{
		{"truncated JSON", writeDoc(t, "t.json", `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"responses"`), Limits{},
			[]string{"apis.own.openapi: ", "t.json:1:88: JSON syntax: the document ends before its JSON does (is it truncated?) (byte 87)"}},
		{"invalid YAML", writeDoc(t, "i.yaml", "openapi: 3.0.3\ninfo: {title: t\npaths: {}\n"), Limits{}, []string{"i.yaml:3: YAML syntax", "starts on line 2"}},
		{"not OpenAPI", writeDoc(t, "n.yaml", "hello: world\n"), Limits{}, []string{"apis.own.openapi: ", "n.yaml"}},
		{"billion laughs", writeDoc(t, "l.yaml", laughs), Limits{}, []string{"l.yaml:9:12: ", "billion laughs", "(at #/x-lol/l5/0)"}},
		{"500 MB", huge, Limits{}, []string{"huge.json is 524.3 MB, more than server.limits.max_document allows", "raise server.limits.max_document"}},
		{"too slow", writeDoc(t, "s.yaml", okDoc), Limits{BuildTimeout: time.Nanosecond}, []string{"took longer than server.limits.document_build_timeout allows"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := loadOne(t, tt.path, tt.lim)
			if err == nil {
				t.Fatalf("loaded; want an error saying %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %v; want it to say %q", err, w)
				}
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("refused after %v; want at once", d)
			}
		})
	}
}

// TestExternalReferencesNotFollowed: a $ref to a URL or to a file outside the document is never
// fetched or read; the document loads, and the page names each such reference and its place.
func TestExternalReferencesNotFollowed(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("type: object\nproperties: {fetched: {type: string}}\n"))
	}))
	defer srv.Close()
	secret := writeDoc(t, "secret.yaml", "type: object\nproperties:\n  readFromDisk: {type: string}\n")
	doc := writeDoc(t, "ext.yaml", `openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '`+srv.URL+`/pet.yaml'}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '`+secret+`'}
  /b:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: 'secret.yaml'}
`)
	api, err := loadOne(t, doc, Limits{})
	if err != nil {
		t.Fatalf("got %v; want the document loaded with warnings", err)
	}
	b, _ := json.Marshal(api)
	if strings.Contains(string(b), "readFromDisk") || strings.Contains(string(b), "fetched") || hits.Load() != 0 {
		t.Fatalf("an external reference was followed: %d fetches, catalog %s", hits.Load(), b)
	}
	all := strings.Join(api.Warnings, "\n")
	for _, want := range []string{srv.URL + "/pet.yaml", secret, "Loupe reads nothing outside the document", "#/paths/~1a/post/requestBody/content/application~1json/schema", "#/paths/~1b/get/responses/200/content/application~1json/schema"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings %q do not name %q", api.Warnings, want)
		}
	}
}

func itoa(i int) string { return string(rune('0' + i)) }
