package sandbox

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestMux(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(r.URL.Path)) })
	m := NewMux(map[string]http.Handler{"entities": echo})
	tests := []struct {
		path       string
		wantStatus int
		wantBody   string // substring
	}{
		{"/sandbox/entities/v1/entities:search", 200, "/v1/entities:search"},
		{"/sandbox/docs/api/v2/project/", 501, "LOUPE_DOCS_URL"},
		{"/sandbox/nope", 501, "built in: entities"},
	}
	for _, tt := range tests {
		w := httptest.NewRecorder()
		m.ServeHTTP(w, httptest.NewRequest("GET", tt.path, nil))
		if w.Code != tt.wantStatus || !strings.Contains(w.Body.String(), tt.wantBody) {
			t.Errorf("%s: got %d %q; want %d containing %q", tt.path, w.Code, w.Body.String(), tt.wantStatus, tt.wantBody)
		}
		if tt.wantStatus != 200 {
			var body struct{ Error string }
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error == "" {
				t.Errorf("%s: body %q is not a JSON error", tt.path, w.Body.String())
			}
		}
	}
}
