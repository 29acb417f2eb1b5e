package pagination

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"testing"

	"loupe/server/sandbox/internal/spectest"
)

// spec is the part of the OpenAPI document the example test reads.
type spec struct {
	Paths map[string]map[string]struct {
		OperationID string `yaml:"operationId"`
		Responses   map[string]struct {
			Content map[string]struct {
				Example any `yaml:"example"`
			} `yaml:"content"`
		} `yaml:"responses"`
	} `yaml:"paths"`
}

// loadSpec parses content/openapi/pagination.yaml from the embedded content.
func loadSpec(t *testing.T) spec {
	t.Helper()
	var s spec
	spectest.Load(t, "pagination", &s)
	return s
}

// TestDocumentedExamples sends each operation the request its documented
// example describes and wants the documented body, byte for byte in value.
func TestDocumentedExamples(t *testing.T) {
	s := loadSpec(t)
	direct := New(Options{})
	proxied := mounted(Options{})
	behindProxy := http.Header{"X-Forwarded-Proto": {"https"}, "X-Forwarded-Host": {"api.example.com"}, "X-Forwarded-Prefix": {""}}
	tests := []struct {
		path, status, query string
	}{
		{PageNumberPath, "200", "?page=2"},
		{PageNumberPath, "404", "?page=11"},
		{LimitOffsetPath, "200", "?limit=5&offset=10"},
		{CursorPath, "200", ""},
		{CursorPath, "404", "?cursor=x"},
		{LinkHeaderPath, "200", "?page=2&page_size=3"},
		{LinkHeaderPath, "404", "?page=99"},
		{LargeCursorPath, "200", "?cursor=cD05OTk5OTU="},
		{LargeCursorPath, "404", "?cursor=x"},
		{LargeLimitOffsetPath, "200", "?limit=3&offset=999997"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		op, ok := s.Paths[tt.path]["get"]
		if !ok {
			t.Errorf("the document has no GET %s", tt.path)
			continue
		}
		ex := op.Responses[tt.status].Content["application/json"].Example
		if ex == nil {
			t.Errorf("%s %s: the document has no example", op.OperationID, tt.status)
			continue
		}
		seen[tt.path+" "+tt.status] = true
		want := spectest.Normalize(t, ex)
		for _, via := range []struct {
			name   string
			h      http.Handler
			target string
			header http.Header
		}{
			{"direct", direct, "https://api.example.com" + tt.path + tt.query, nil},
			{"forwarded", proxied, "http://127.0.0.1:8080/sandbox/pagination" + tt.path + tt.query, behindProxy},
		} {
			t.Run(op.OperationID+"/"+tt.status+"/"+via.name, func(t *testing.T) {
				w := serve(t, via.h, http.MethodGet, via.target, via.header)
				if got := strconv.Itoa(w.Code); got != tt.status {
					t.Errorf("status: got %s; want %s", got, tt.status)
				}
				var got any
				if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
					t.Fatalf("decoding %s: %v", w.Body, err)
				}
				if !reflect.DeepEqual(got, want) {
					g, _ := json.Marshal(got)
					e, _ := json.Marshal(want)
					t.Errorf("body: got %s; want %s", g, e)
				}
			})
		}
	}
	// Every documented example of the three operations is covered.
	for path, ops := range s.Paths {
		for status, r := range ops["get"].Responses {
			if r.Content["application/json"].Example != nil && !seen[path+" "+status] {
				t.Errorf("GET %s %s has an example this test does not check", path, status)
			}
		}
	}
}
