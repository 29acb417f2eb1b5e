package script

import (
	"net/http/httptest"
	"strings"
	"testing"

	"loupe/server/sandbox"
)

// BenchmarkRun measures one scripts.run of a small function, from the request to the answer:
// a fresh engine, the project's files loaded, the call and its result.
func BenchmarkRun(b *testing.B) {
	h, _ := semanticsProject(b, defaultRunTimeout)
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest("POST", "/v1/scripts/"+SeedScriptID+":run", strings.NewReader(`{"function":"fib","parameters":[10],"devMode":true}`))
		r.Header.Set("Authorization", "Bearer "+sandbox.DefaultKey)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 || !strings.Contains(w.Body.String(), `"result":55`) {
			b.Fatalf("got %d %s", w.Code, w.Body)
		}
	}
}
