package server

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"loupe/server/config"
	"loupe/server/sandbox"
)

// BenchmarkChatStreamEvents is the server's own work per event of a chat stream, through
// /proxy/chat and straight to /sandbox/chat: one stream of benchChatTokens tokens at a time,
// unpaced, served in-process to a recorder (no connection, no write to a socket), so what it
// measures is what the proxy adds to each event, which BenchmarkChatStreams2000's 2,000 streams
// pay 40 times a second each. It reports ns and allocations per event.
func BenchmarkChatStreamEvents(b *testing.B) {
	settings := config.Default()
	settings.Server.Limits.Rate, settings.Server.Limits.Burst = 1e6, 1e6
	if err := settings.ResolveCredentials(); err != nil {
		b.Fatal(err)
	}
	srv, err := New(Config{Settings: settings, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	// The server compresses its catalog in the background after it starts: wait for that.
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		req := httptest.NewRequest(http.MethodGet, "/catalog.json", nil)
		req.Header.Set("Accept-Encoding", "br")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Header().Get("Content-Encoding") == "br" {
			break
		}
	}
	waitIdle(os.Getpid()) // the other resources' compression

	perEvent := map[string]float64{}
	body := `{"model":"v0-1.0-md","stream":true,"max_tokens":200,"messages":[{"role":"user","content":"a todo list app"}]}`
	for _, p := range []struct{ name, path string }{
		{"proxy", "/proxy/chat/v1/chat/completions"},
		{"direct", "/sandbox/chat/v1/chat/completions"},
	} {
		b.Run(p.name, func(b *testing.B) {
			events := 0
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, p.path, strings.NewReader(body))
				req.RemoteAddr = "127.0.0.1:1234"
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+sandbox.DefaultKey)
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, req)
				if w.Code != http.StatusOK || !bytes.HasSuffix(w.Body.Bytes(), []byte("data: [DONE]\n\n")) {
					b.Fatalf("got %d %.300s; want a whole stream", w.Code, w.Body.String())
				}
				events += bytes.Count(w.Body.Bytes(), []byte("\n\n"))
			}
			perEvent[p.name] = float64(b.Elapsed().Nanoseconds()) / float64(events)
			b.ReportMetric(perEvent[p.name], "ns/event")
			b.ReportMetric(0, "ns/op")
		})
	}
	if d := perEvent["direct"]; d > 0 && perEvent["proxy"] > 0 {
		fmt.Printf("chat stream, per event: through /proxy %.0f ns, direct %.0f ns: the proxy adds %.0f ns (%.2fx direct; anchor before the in-process coroutine: 3,400-3,800 ns vs 1,000-1,300 ns)\n",
			perEvent["proxy"], d, perEvent["proxy"]-d, perEvent["proxy"]/d)
	}
}
