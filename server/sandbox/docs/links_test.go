package docs

import (
	"crypto/tls"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

func TestLinksAddress(t *testing.T) {
	const list = "/api/v2/build/?project__slug=pip&limit=1"
	const tail = "/api/v2/build/?limit=1&offset=1&project__slug=pip"
	tests := []struct {
		name     string
		handler  http.Handler
		target   string
		header   http.Header
		tls      bool
		wantNext string
	}{
		{"mounted, no headers", mounted(Options{}), "http://h.test:8080/sandbox/docs" + list, nil, false,
			"http://h.test:8080/sandbox/docs" + tail},
		{"TLS", mounted(Options{}), "http://h.test/sandbox/docs" + list, nil, true,
			"https://h.test/sandbox/docs" + tail},
		{"other mount point", http.StripPrefix("/x/y", New(Options{})), "http://h.test/x/y" + list, nil, false,
			"http://h.test/x/y" + tail},
		{"unmounted", New(Options{}), "http://readthedocs.test" + list, nil, false,
			"http://readthedocs.test" + tail},
		{"behind the Loupe proxy", mounted(Options{}), "http://127.0.0.1:8080/sandbox/docs" + list,
			http.Header{"X-Forwarded-Proto": {"https"}, "X-Forwarded-Host": {"loupe.example.com"}, "X-Forwarded-Prefix": {"/proxy/docs"}}, false,
			"https://loupe.example.com/proxy/docs" + tail},
		{"forwarded lists take the first", mounted(Options{}), "http://127.0.0.1/sandbox/docs" + list,
			http.Header{"X-Forwarded-Proto": {"https, http"}, "X-Forwarded-Host": {"a.test, b.test"}, "X-Forwarded-Prefix": {"/p/docs/, /q"}}, false,
			"https://a.test/p/docs" + tail},
		{"empty prefix header means the root", mounted(Options{}), "http://127.0.0.1/sandbox/docs" + list,
			http.Header{"X-Forwarded-Prefix": {""}}, false,
			"http://127.0.0.1" + tail},
		{"only the host forwarded", mounted(Options{}), "http://127.0.0.1/sandbox/docs" + list,
			http.Header{"X-Forwarded-Host": {"pub.test"}}, false,
			"http://pub.test/sandbox/docs" + tail},
		{"Prefix option for requests built in code", New(Options{Prefix: "/p/"}), "", nil, false,
			"http://h.test/p" + tail},
		{"default prefix for requests built in code", New(Options{}), "", nil, false,
			"http://h.test/sandbox/docs" + tail},
		{"query kept, sorted, re-encoded", mounted(Options{}), "http://h.test/sandbox/docs/api/v2/build/?z=a%20b&project__slug=pip&limit=1&b=%26", nil, false,
			"http://h.test/sandbox/docs/api/v2/build/?b=%26&limit=1&offset=1&project__slug=pip&z=a+b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r *http.Request
			if tt.target == "" {
				r, _ = http.NewRequest(http.MethodGet, "http://h.test"+list, nil)
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
			if w.Code != http.StatusOK {
				t.Fatalf("status: got %d; want 200 (%s)", w.Code, w.Body)
			}
			var p listPage
			if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
				t.Fatalf("decoding %s: %v", w.Body, err)
			}
			if got := str(p.Next); got != tt.wantNext {
				t.Errorf("next: got %s; want %s", got, tt.wantNext)
			}
		})
	}
}

func TestPageNumberLinks(t *testing.T) {
	// The dataset's three projects fit one page of 100, so the page links of
	// the project list are checked on 250 synthetic items.
	items := make([]json.RawMessage, 250)
	for i := range items {
		items[i] = json.RawMessage(strconv.Itoa(i + 1))
	}
	const list = "/sandbox/docs/api/v2/project/"
	tests := []struct {
		query                  string
		wantStatus             int
		wantFirst, wantLen     int
		wantNext, wantPrevious string
	}{
		{"?page=1", 200, 1, 100, "https://loupe.test/proxy/docs/api/v2/project/?page=2", "<nil>"},
		{"?page=2&slug=", 200, 101, 100, "https://loupe.test/proxy/docs/api/v2/project/?page=3&slug=", "https://loupe.test/proxy/docs/api/v2/project/?slug="},
		{"?page=3", 200, 201, 50, "<nil>", "https://loupe.test/proxy/docs/api/v2/project/?page=2"},
		{"?page=last", 200, 201, 50, "<nil>", "https://loupe.test/proxy/docs/api/v2/project/?page=2"},
		{"?page=4", 404, 0, 0, "", ""},
	}
	h := New(Options{})
	header := http.Header{"X-Forwarded-Proto": {"https"}, "X-Forwarded-Host": {"loupe.test"}, "X-Forwarded-Prefix": {"/proxy/docs"}}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+list+tt.query, nil)
			r.URL.Path = "/api/v2/project/"
			r.Header = header
			status, body := pageNumber(h.(*handler), r, r.URL.Query(), items)
			if status != tt.wantStatus {
				t.Fatalf("status: got %d; want %d", status, tt.wantStatus)
			}
			if status != http.StatusOK {
				return
			}
			p := body.(page)
			if got := len(p.Results); got != tt.wantLen {
				t.Errorf("results: got %d; want %d", got, tt.wantLen)
			}
			if got, want := string(p.Results[0]), strconv.Itoa(tt.wantFirst); got != want {
				t.Errorf("first: got %s; want %s", got, want)
			}
			if got := str(p.Next); got != tt.wantNext {
				t.Errorf("next: got %s; want %s", got, tt.wantNext)
			}
			if got := str(p.Previous); got != tt.wantPrevious {
				t.Errorf("previous: got %s; want %s", got, tt.wantPrevious)
			}
		})
	}
}
