package proxy

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"testing"

	servercatalog "loupe/server/catalog"

	"loupe/content"
)

// cannedTransport answers every request at once with the ~1 KB JSON of BenchmarkProxyJSON64,
// without a connection: what is left of a proxied call is the proxy's own work.
type cannedTransport struct{}

func (cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		r.Body.Close()
	}
	return &http.Response{
		StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{
			"Content-Type":   {"application/json"},
			"Content-Length": {strconv.Itoa(len(jsonKB))},
			"Date":           {"Mon, 23 Nov 2026 10:00:00 GMT"},
		},
		Body: io.NopCloser(bytes.NewReader(jsonKB)), ContentLength: int64(len(jsonKB)), Request: r,
	}, nil
}

// discardWriter is a ResponseWriter that keeps nothing, with a Flusher like the server's.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(code int)        { w.status = code }
func (w *discardWriter) Flush()                      {}

// BenchmarkProxyOverhead measures the CPU time and allocations of one proxied GET of a
// documented operation answered with 1 KB of JSON, with the upstream replaced by a canned answer
// (no connection), through Loupe's proxy as the server configures it (the real catalog, a
// credential, masking, the rate limit, an audit line) and through a bare httputil.ReverseProxy:
// the difference is what Loupe's own per-request work costs, which BenchmarkProxyJSON64
// measures over real connections beside nginx.
func BenchmarkProxyOverhead(b *testing.B) {
	cat, err := servercatalog.Load(content.FS)
	if err != nil {
		b.Fatal(err)
	}
	base, _ := url.Parse("http://127.0.0.1:9")
	loupe := New(Config{
		APIs: map[string]*API{"docs": {BaseURL: base, Secrets: []string{"bench-SECRET-key"},
			Apply: func(r *http.Request) { r.Header.Set("Authorization", "Token bench-SECRET-key") }}},
		Catalog:   cat,
		Transport: cannedTransport{},
		Rate:      1e9, Burst: 1e9,
		Audit: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	plain := &httputil.ReverseProxy{
		Rewrite:    func(pr *httputil.ProxyRequest) { pr.SetURL(base) },
		Transport:  cannedTransport{},
		BufferPool: newBufferPool(),
	}
	for _, t := range []struct {
		name string
		h    http.Handler
		path string
	}{
		{"loupe", loupe, "/proxy/docs/api/v2/project/6/active_versions/"},
		{"plain", plain, "/api/v2/project/6/active_versions/"},
	} {
		b.Run(t.name, func(b *testing.B) {
			w := &discardWriter{h: http.Header{}}
			for b.Loop() {
				r, _ := http.NewRequest(http.MethodGet, t.path, nil)
				r.RequestURI, r.Host = t.path, "127.0.0.1:8080"
				r.Header.Set("User-Agent", "wrk")
				r.Header.Set("Accept", "application/json")
				clear(w.h)
				w.status = 0
				t.h.ServeHTTP(w, r)
				if w.status != http.StatusOK {
					b.Fatalf("got status %d; want 200", w.status)
				}
			}
		})
	}
}
