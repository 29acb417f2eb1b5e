package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"loupe/server"
	"loupe/server/config"
)

// The page-load benchmark loads one operation page of Loupe and the same operation in Swagger UI
// (swagger-ui-dist from npm, e2e/node_modules), both served by one test server and both reading
// the OpenAPI document Loupe serves at /openapi/<slug>.yaml. Parameters (environment):
//
//	LOUPE_BENCH_API     the API's slug in Loupe's catalog (default "entities")
//	LOUPE_BENCH_OP      its operationId (default "entities.search")
//	LOUPE_BENCH_OPENAPI an OpenAPI document added as apis.<LOUPE_BENCH_API>.openapi, such as
//	                    GitHub's (node_modules/@octokit/openapi/generated/api.github.com.json)
//	LOUPE_BENCH_SWAGGER_OP the operationId as the document writes it, when Loupe's differs
//	                    (default LOUPE_BENCH_OP)
//	LOUPE_BENCH_ROUNDS  rounds per network (default 5)
//	LOUPE_BENCH_NET     "loopback" or "Fast 4G" for one network only (default both)
//
// Beside them it loads the empty go-app app (pageload_empty_bench_test.go), the floor go-app
// sets under Loupe's "operation usable". Each round loads the three, the order rotated each
// round, each in a Chromium with a new profile (empty caches, no service worker) and then
// again in the same profile, repeatVisitAfter later (the repeat visit). On Fast 4G, the
// service worker's fetches are throttled too on the repeat visit.

// fast4G is the slow network of the anchors: 8.1 Mbit/s down, 165 ms round trip.
var fast4G = &network.Conditions{Latency: 165, DownloadThroughput: 8.1e6 / 8, UploadThroughput: 8.1e6 / 8}

// pageLoad is what one load measured, in ms since navigation start and bytes.
type pageLoad struct {
	FirstPaint   float64 `json:"fp"`
	FirstContent float64 `json:"fcp"`
	Usable       float64 `json:"usable"`
	Bytes        float64 `json:"bytes"`
	WasmIn       float64 `json:"wasm"` // app.wasm's last byte received (NaN for Swagger UI, which has none)
	// The start-up's steps (NaN for the pages without them, see startPhases): the wasm handed
	// to the compiler, compiled and instantiated, Go's main started (the runtime and every
	// package initialized), Loupe's routes registered with the page catalog read, the page
	// mounted (go-app's loader gone).
	CompileCall float64 `json:"compileCall"`
	Compiled    float64 `json:"compiled"`
	GoMain      float64 `json:"goMain"`
	Routes      float64 `json:"routes"`
	Mounted     float64 `json:"mounted"`
}

// Each page's usable check, a JavaScript function that usableRecorder calls. Loupe's operation
// is usable (Send-ready) when the wasm runs (go-app removed its loader) and Send is enabled;
// Swagger UI's when the deep-linked operation is open with its "Try it out" button. The empty
// go-app app's is emptyAppMounted.
const (
	loupeSendReady = `() => {
		const send = document.getElementById("send");
		return document.getElementById("app-wasm-loader") === null && send !== null &&
			!send.disabled && !send.hasAttribute("aria-disabled");
	}`
	swaggerTryItOut = `() => document.querySelector(".opblock.is-open .try-out__btn") !== null`
)

// usableRecorder is the script that runs before any script of every page of a load: it records
// in window.__usableAt the time (performance.now()) the JavaScript function usable first
// returned true, and the start-up's steps the page itself does not mark: when the wasm went to
// WebAssembly.instantiateStreaming and when that resolved, and when go-app's loader left.
func usableRecorder(usable string) string {
	return `(() => {
	const instantiate = WebAssembly.instantiateStreaming;
	WebAssembly.instantiateStreaming = function (...args) {
		window.__compileCall ??= performance.now();
		return instantiate.apply(this, args).then(r => { window.__compiled ??= performance.now(); return r; });
	};
	const mounted = () => {
		if (window.__mountedAt === undefined && document.body && document.readyState !== "loading" &&
			window.__compiled !== undefined && document.getElementById("app-wasm-loader") === null) {
			window.__mountedAt = performance.now();
		}
	};
	new MutationObserver(mounted).observe(document, {childList: true, subtree: true});
	const usable = ` + usable + `;
	const check = () => {
		if (window.__usableAt === undefined && document.readyState !== "loading" && usable()) {
			window.__usableAt = performance.now();
		}
	};
	new MutationObserver(check).observe(document, {childList: true, subtree: true, attributes: true});
	document.addEventListener("DOMContentLoaded", check);
	const tick = setInterval(() => { check(); if (window.__usableAt !== undefined) clearInterval(tick); }, 10);
})();`
}

// loadFigures reads a load's figures once the operation is usable.
const loadFigures = `(() => {
	const paint = name => (performance.getEntriesByName(name)[0] || {startTime: -1}).startTime; // -1: none recorded
	const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
	const wasm = entries.find(e => e.name.endsWith("/app.wasm")) || {responseEnd: -1}; // Swagger UI has none
	const mark = name => (performance.getEntriesByName(name, "mark")[0] || {startTime: -1}).startTime;
	return {fp: paint("first-paint"), fcp: paint("first-contentful-paint"), usable: window.__usableAt,
		bytes: entries.reduce((sum, e) => sum + (e.transferSize || 0), 0), wasm: wasm.responseEnd,
		compileCall: window.__compileCall ?? -1, compiled: window.__compiled ?? -1,
		goMain: mark("loupe:main"), routes: mark("loupe:routes"), mounted: window.__mountedAt ?? -1};
})()`

// BenchmarkPageLoadBesideSwaggerUI prints, for loopback and Fast 4G, first and repeat visits,
// the medians of first paint, first contentful paint, the time until the operation is usable and
// the bytes transferred (the page's own requests; a service worker's fetches are not counted),
// for Loupe and Swagger UI, with their ratio, then the same for Loupe and the empty go-app app
// and Loupe's Send-ready time beside the empty app's mount. Run it with -benchtime 1x.
func BenchmarkPageLoadBesideSwaggerUI(b *testing.B) {
	slug, op := envOr("LOUPE_BENCH_API", "entities"), envOr("LOUPE_BENCH_OP", "entities.search")
	rounds, _ := strconv.Atoi(envOr("LOUPE_BENCH_ROUNDS", "5"))
	if rounds < 1 {
		rounds = 5
	}
	base, loupeURL, swaggerURL := startPageLoadServer(b, slug, op)
	emptyURL := startEmptyApp(b)
	fmt.Printf("page load, operation %s/%s, %d rounds of the three pages, medians (Loupe %s, Swagger UI %s, empty go-app app %s)\n",
		slug, op, rounds, loupeURL, swaggerURL, emptyURL)
	for b.Loop() {
		for _, net := range []struct {
			name string
			cond *network.Conditions
		}{{"loopback", nil}, {"Fast 4G", fast4G}} {
			if only := os.Getenv("LOUPE_BENCH_NET"); only != "" && !strings.EqualFold(only, net.name) {
				continue
			}
			var loupe, swagger, empty [2][]pageLoad // [first visit, repeat visit]
			pages := []struct {
				url, usable string
				into        *[2][]pageLoad
			}{{base + loupeURL, loupeSendReady, &loupe}, {base + swaggerURL, swaggerTryItOut, &swagger}, {emptyURL, emptyAppMounted, &empty}}
			for r := range rounds {
				for i := range pages {
					p := pages[(i+r)%len(pages)] // each page first in turn
					first, repeat := loadTwice(b, p.url, p.usable, net.cond)
					p.into[0] = append(p.into[0], first)
					p.into[1] = append(p.into[1], repeat)
				}
			}
			printPageLoads(net.name, loupe, swagger)
			printBesideEmptyApp(net.name, loupe, empty)
			printStartPhases(net.name, loupe, empty)
		}
	}
}

// loadTwice loads url in a Chromium with a new profile of its own (first visit), waits for its
// service worker to be active and to hold app.wasm where there is one, and loads it again in the
// same profile (repeat visit). The page is usable when the JavaScript function usable first
// returns true.
func loadTwice(b *testing.B, url, usable string, cond *network.Conditions) (first, repeat pageLoad) {
	b.Helper()
	ctx, closeBrowser := profileBrowser(b)
	defer closeBrowser()
	if _, err := chromedp.Call(within(b, ctx, 10*time.Second), page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: usableRecorder(usable)}); err != nil {
		b.Fatal(err)
	}
	if cond != nil {
		if _, err := chromedp.Call(within(b, ctx, 10*time.Second), network.Enable, network.EnableParams{}); err != nil {
			b.Fatal(err)
		}
		if _, err := chromedp.Call(within(b, ctx, 10*time.Second), network.EmulateNetworkConditionsByRule,
			network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{cond}}); err != nil {
			b.Fatal(err)
		}
	}
	load := func(what string) pageLoad {
		// From a blank page, so that a second load of a URL with a fragment is a new document.
		if err := chromedp.Do(within(b, ctx, 120*time.Second), chromedp.Navigate("about:blank"), chromedp.Navigate(url)); err != nil {
			b.Fatalf("%s of %s: %v", what, url, err)
		}
		poll := func() (pageLoad, error) {
			return chromedp.Run(within(b, ctx, usableLimit+10*time.Second), chromedp.Poll[pageLoad](
				`window.__usableAt === undefined ? null : `+loadFigures, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(usableLimit)))
		}
		got, err := poll()
		for tries := 0; err != nil && strings.Contains(err.Error(), "Cannot find context with specified id") && tries < 5; tries++ {
			// Chrome did not know the page's execution context that chromedp had just been
			// told of (seen on repeat visits of the empty app, whose page its service worker
			// answers at once): the page's recorder keeps its times, so asking again loses
			// nothing.
			time.Sleep(50 * time.Millisecond)
			got, err = poll()
		}
		if errors.Is(err, chromedp.ErrPollingTimeout) || errors.Is(err, context.DeadlineExceeded) {
			// Too slow to wait for (Swagger UI on a document of a thousand operations): the
			// paints and bytes so far, and a usable time that is only a lower bound, which
			// printPageLoads says.
			got, err = chromedp.Run(within(b, ctx, 30*time.Second), chromedp.Evaluate[pageLoad](
				strings.Replace(loadFigures, "usable: window.__usableAt,", "usable: 0,", 1)))
			if err != nil {
				b.Fatalf("%s of %s: reading the figures of a page that never became usable: %v", what, url, err)
			}
			got.Usable = math.Inf(1)
			return got.recordedOnly()
		}
		if err != nil {
			b.Fatalf("%s of %s: %v", what, url, err)
		}
		return got.recordedOnly()
	}
	first = load("first visit")
	if math.IsInf(first.Usable, 1) {
		nan := math.NaN() // no repeat visit of a page that never became usable: not measured
		return first, pageLoad{FirstPaint: nan, FirstContent: nan, Usable: nan, Bytes: nan, WasmIn: nan,
			CompileCall: nan, Compiled: nan, GoMain: nan, Routes: nan, Mounted: nan}
	}
	if _, err := chromedp.Run(within(b, ctx, 60*time.Second), chromedp.Evaluate[bool](workerReady, chromedp.EvalAwaitPromise)); err != nil {
		b.Fatalf("waiting for the service worker of %s: %v", url, err)
	}
	// A visitor comes back later, not at once. V8 writes a module's compiled code to Chrome's
	// code cache, when it writes it at all, a few seconds after it last optimized a function of
	// it; by then it has.
	time.Sleep(repeatVisitAfter)
	if cond != nil {
		defer throttleServiceWorkers(b, ctx, cond)()
	}
	repeat = load("repeat visit")
	return first, repeat
}

// workerReady waits until the page's service worker, if it has one, is active and has app.wasm
// in its cache. Loupe's worker is active once its cache is filled; go-app's own (the empty
// app's) is active before (its install does not wait for its cache), so a repeat visit right
// after it could fetch from the network what it was about to cache.
const workerReady = `(async () => {
	if (!await navigator.serviceWorker.getRegistration()) return false;
	await navigator.serviceWorker.ready;
	for (;;) {
		for (const name of await caches.keys()) {
			const requests = await (await caches.open(name)).keys();
			if (requests.some(r => new URL(r.url).pathname.endsWith("/app.wasm"))) return true;
		}
		await new Promise(resolve => setTimeout(resolve, 50));
	}
})()`

// throttleServiceWorkers applies cond to the service workers of ctx's browser too (each load
// pair has a browser of its own, see profileBrowser): a page's emulated network does not slow
// its worker's own fetches, and on a repeat visit go-app's worker fetches the page. It returns
// what detaches from them.
func throttleServiceWorkers(b *testing.B, ctx context.Context, cond *network.Conditions) (detach func()) {
	b.Helper()
	targets, err := chromedp.Targets(ctx)
	if err != nil {
		b.Fatalf("listing the targets: %v", err)
	}
	var cancels []context.CancelFunc
	for _, t := range targets {
		if t.Type != "service_worker" {
			continue
		}
		wctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(t.TargetID), chromedp.WithDetachOnCancel())
		cancels = append(cancels, cancel)
		if _, err := chromedp.Call(within(b, wctx, 10*time.Second), network.EmulateNetworkConditionsByRule,
			network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{cond}}); err != nil {
			b.Fatalf("throttling the service worker: %v", err)
		}
	}
	return func() {
		for _, c := range cancels {
			c()
		}
	}
}

// repeatVisitAfter is how long after the first visit's service worker is ready the repeat visit
// starts (LOUPE_BENCH_REPEAT_AFTER, a Go duration, changes it).
var repeatVisitAfter = func() time.Duration {
	d, err := time.ParseDuration(envOr("LOUPE_BENCH_REPEAT_AFTER", "10s"))
	if err != nil {
		return 10 * time.Second
	}
	return d
}()

// profileBrowser starts a headless Chromium with a new profile on disk and returns its first
// tab and what closes the browser. Not a browser context of the shared Chromium: those are
// off the record, and Chromium keeps no compiled code of an off-the-record page (V8's code
// cache, which a repeat visit reads app.wasm's compiled code from); a profile on disk is what a
// visitor has.
func profileBrowser(b *testing.B) (context.Context, func()) {
	b.Helper()
	ctx, closeBrowser, err := startChromium(b, b.TempDir())
	if err != nil {
		b.Fatalf("starting Chromium: %v", err)
	}
	return ctx, closeBrowser
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// startPageLoadServer serves Loupe at / and Swagger UI at /swagger/, its files compressed as
// Loupe's wasm is (brotli or gzip by Accept-Encoding), and returns the two pages' paths.
func startPageLoadServer(b *testing.B, slug, op string) (base, loupePath, swaggerPath string) {
	b.Helper()
	startServer(b) // checks the wasm is built
	cfg := server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if doc := os.Getenv("LOUPE_BENCH_OPENAPI"); doc != "" {
		settings, err := config.Parse([]byte("apis:\n  "+slug+":\n    openapi: "+doc+"\n"), "loupe.yaml", func(string) (string, bool) { return "", false })
		if err != nil {
			b.Fatalf("LOUPE_BENCH_OPENAPI: %v", err)
		}
		cfg.Settings = settings
	}
	srv, err := server.New(cfg)
	if err != nil {
		b.Fatalf("server.New: %v", err)
	}
	o := srv.Catalog().API(slug).Operation(op)
	if srv.Catalog().API(slug) == nil || o == nil {
		b.Fatalf("no operation %s/%s in Loupe's catalog: set LOUPE_BENCH_API and LOUPE_BENCH_OP", slug, op)
	}
	tag := "default"
	if len(o.Tags) > 0 {
		tag = o.Tags[0]
	}
	dist := filepath.Join("node_modules", "swagger-ui-dist")
	index := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Swagger UI</title>
<link rel="stylesheet" href="/swagger/swagger-ui.css"></head><body><div id="swagger-ui"></div>
<script src="/swagger/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({url: "/openapi/` + slug + `.yaml", dom_id: "#swagger-ui", deepLinking: true});</script>
</body></html>`
	files := map[string]*compressed{"/swagger/": compress(b, "text/html; charset=utf-8", []byte(index))}
	for _, name := range []string{"swagger-ui-bundle.js", "swagger-ui.css"} {
		data, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			b.Fatalf("Swagger UI is not installed: run `npm ci` in e2e/ (make deps-bench does): %v", err)
		}
		ct := "text/javascript; charset=utf-8"
		if strings.HasSuffix(name, ".css") {
			ct = "text/css; charset=utf-8"
		}
		files["/swagger/"+name] = compress(b, ct, data)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f, ok := files[r.URL.Path]; ok {
			f.serve(w, r)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	b.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	// Swagger UI names the operation as the document does; Loupe's id differs where the
	// document's cannot be a URL segment (GitHub's repos/get is Loupe's repos-get).
	fragment := "#/" + url.PathEscape(strings.ReplaceAll(tag, " ", "_")) + "/" + url.PathEscape(envOr("LOUPE_BENCH_SWAGGER_OP", op))
	return ts.URL, "/" + slug + "/" + op, "/swagger/" + fragment
}

// compressed is one file with its gzip and brotli forms.
type compressed struct {
	contentType      string
	raw, gzip, brotl []byte
}

// compress makes a file's gzip -9 and, with the brotli command, brotli -q 11 forms (the
// quality Loupe's precompressed wasm uses).
func compress(b *testing.B, contentType string, data []byte) *compressed {
	b.Helper()
	c := &compressed{contentType: contentType, raw: data}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	c.gzip = gz.Bytes()
	if path, err := exec.LookPath("brotli"); err == nil {
		cmd := exec.Command(path, "-c", "-q", "11")
		cmd.Stdin = bytes.NewReader(data)
		if out, err := cmd.Output(); err == nil {
			c.brotl = out
		}
	}
	return c
}

func (c *compressed) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", c.contentType)
	h.Set("Vary", "Accept-Encoding")
	h.Set("Cache-Control", "no-cache")
	body := c.raw
	switch accepted := r.Header.Get("Accept-Encoding"); {
	case c.brotl != nil && strings.Contains(accepted, "br"):
		body = c.brotl
		h.Set("Content-Encoding", "br")
	case strings.Contains(accepted, "gzip"):
		body = c.gzip
		h.Set("Content-Encoding", "gzip")
	}
	http.ServeContent(w, r, "", time.Unix(1700000000, 0), bytes.NewReader(body))
}
