package pagination

import (
	"crypto/tls"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestLinksAddress(t *testing.T) {
	tests := []struct {
		name     string
		handler  http.Handler
		target   string
		header   http.Header
		tls      bool
		wantNext string
	}{
		{"mounted, no headers", mounted(Options{}), "http://h.test:8080/sandbox/pagination/page-number/items/", nil, false,
			"http://h.test:8080/sandbox/pagination/page-number/items/?page=2"},
		{"TLS", mounted(Options{}), "http://h.test/sandbox/pagination/page-number/items/", nil, true,
			"https://h.test/sandbox/pagination/page-number/items/?page=2"},
		{"other mount point", http.StripPrefix("/x/y", New(Options{})), "http://h.test/x/y/page-number/items/", nil, false,
			"http://h.test/x/y/page-number/items/?page=2"},
		{"unmounted", New(Options{}), "http://api.example.com/page-number/items/", nil, false,
			"http://api.example.com/page-number/items/?page=2"},
		{"behind the Loupe proxy", mounted(Options{}), "http://127.0.0.1:8080/sandbox/pagination/limit-offset/items/?limit=5",
			http.Header{"X-Forwarded-Proto": {"https"}, "X-Forwarded-Host": {"loupe.example.com"}, "X-Forwarded-Prefix": {"/tools/proxy/pagination"}}, false,
			"https://loupe.example.com/tools/proxy/pagination/limit-offset/items/?limit=5&offset=5"},
		{"forwarded lists take the first", mounted(Options{}), "http://127.0.0.1/sandbox/pagination/cursor/items/?cursor=" + exampleCursor,
			http.Header{"X-Forwarded-Proto": {"https, http"}, "X-Forwarded-Host": {"a.test, b.test"}, "X-Forwarded-Prefix": {"/proxy/pagination/"}}, false,
			"https://a.test/proxy/pagination/cursor/items/?cursor=cD0yMDI2LTAzLTE3KzEwJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D"},
		{"empty prefix header means the root", mounted(Options{}), "http://127.0.0.1/sandbox/pagination/page-number/items/?page=2",
			http.Header{"X-Forwarded-Prefix": {""}}, false,
			"http://127.0.0.1/page-number/items/?page=3"},
		{"only the host forwarded", mounted(Options{}), "http://127.0.0.1/sandbox/pagination/page-number/items/",
			http.Header{"X-Forwarded-Host": {"pub.test"}}, false,
			"http://pub.test/sandbox/pagination/page-number/items/?page=2"},
		{"Prefix option for requests built in code", New(Options{Prefix: "/p/"}), "", nil, false,
			"http://h.test/p/page-number/items/?page=2"},
		{"query kept, sorted, re-encoded", mounted(Options{}), "http://h.test/sandbox/pagination/page-number/items/?q=a%20b&b=%26&b=2&page_size=5&page=1", nil, false,
			"http://h.test/sandbox/pagination/page-number/items/?b=%26&b=2&page=2&page_size=5&q=a+b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r *http.Request
			if tt.target == "" {
				r, _ = http.NewRequest(http.MethodGet, "http://h.test/page-number/items/", nil)
			} else {
				r = httptest.NewRequest(http.MethodGet, tt.target, nil)
			}
			for k, v := range tt.header {
				r.Header[k] = v
			}
			if tt.tls {
				r.TLS = &tls.ConnectionState{}
			}
			w := httptest.NewRecorder()
			tt.handler.ServeHTTP(w, r)
			if w.Code != 200 {
				t.Fatalf("status: got %d; want 200 (%s)", w.Code, w.Body)
			}
			var p page
			if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
				t.Fatal(err)
			}
			if got := str(p.Next); got != tt.wantNext {
				t.Errorf("next: got %s; want %s", got, tt.wantNext)
			}
		})
	}
}
