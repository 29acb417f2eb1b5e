package pagination

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"testing"

	"loupe/server/sandbox/internal/spectest"
)

// TestSandboxOnlyExamples sends the documented request of each sandbox-only
// call to a fresh sandbox and wants the documented answers.
func TestSandboxOnlyExamples(t *testing.T) {
	var s struct {
		Paths map[string]map[string]struct {
			SandboxOnly bool `yaml:"x-loupe-sandbox-only"`
			RequestBody struct {
				Content map[string]struct {
					Example any `yaml:"example"`
				} `yaml:"content"`
			} `yaml:"requestBody"`
			Responses map[string]struct {
				Content map[string]struct {
					Example any `yaml:"example"`
				} `yaml:"content"`
			} `yaml:"responses"`
		} `yaml:"paths"`
	}
	spectest.Load(t, "pagination", &s)
	tests := []struct {
		path, method, target, ctype, body, status string
	}{
		{"/items/", "post", "/items/", "", "", "201"},
		{"/items/", "post", "/items/", "application/json", "{}", "400"},
		{"/items/", "post", "/items/", "text/plain", "x", "415"},
		{"/items/{id}/", "delete", "/items/42/", "", "", "204"},
		{"/items/{id}/", "delete", "/items/4242/", "", "", "404"},
		{"/items/reset/", "post", "/items/reset/", "", "", "204"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target+" "+tt.status, func(t *testing.T) {
			op := s.Paths[tt.path][tt.method]
			if !op.SandboxOnly {
				t.Errorf("%s %s: not marked x-loupe-sandbox-only", tt.method, tt.path)
			}
			body, ctype := tt.body, tt.ctype
			if ctype == "" && tt.status == "201" {
				b, _ := json.Marshal(op.RequestBody.Content["application/json"].Example)
				body, ctype = string(b), "application/json"
			}
			w := send(mounted(Options{}), map[string]string{"post": http.MethodPost, "delete": http.MethodDelete}[tt.method],
				base+tt.target, ctype, body)
			if got := strconv.Itoa(w.Code); got != tt.status {
				t.Fatalf("status: got %s %s; want %s", got, w.Body, tt.status)
			}
			ex := op.Responses[tt.status].Content["application/json"].Example
			if ex == nil {
				if w.Body.Len() != 0 {
					t.Errorf("body: got %s; want none", w.Body)
				}
				return
			}
			var got any
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if want := spectest.Normalize(t, ex); !reflect.DeepEqual(got, want) {
				t.Errorf("body: got %v; want %v", got, want)
			}
		})
	}
}
