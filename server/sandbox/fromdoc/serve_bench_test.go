package fromdoc

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkServe answers one stateful read (a collection's list, from the seed) and one
// stateless answer in-process, to profile the sandbox's own work per request.
func BenchmarkServe(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(directory, "docker.com/hub.json"))
	if err != nil {
		b.Fatal(err)
	}
	d, err := Load("hub", data)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(Options{Name: "hub", Document: d})
	if err != nil {
		b.Fatal(err)
	}
	for _, path := range []string{"/v2/access-tokens", "/v2/access-tokens/access-token-1"} {
		b.Run(path, func(b *testing.B) {
			for b.Loop() {
				r := httptest.NewRequest("GET", path, nil)
				r.Header.Set("Authorization", "Bearer x")
				w := httptest.NewRecorder()
				s.ServeHTTP(w, r)
				if w.Code != 200 {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
			}
		})
	}
}
