package e2e

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkStaticFirstSend writes the static site, prints its total size, and measures, in a
// fresh Chromium profile each time (cold: nothing cached), the time from the first Send on the
// entity search page to its answer on screen, fetching and starting the sandbox module included.
// The site is served by net/http's plain file server, uncompressed. Run it with -benchtime 5x.
func BenchmarkStaticFirstSend(b *testing.B) {
	dir := writeStatic(b, "/")
	var total int64
	var files int
	if err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			info, ierr := d.Info()
			if ierr != nil {
				return ierr
			}
			total += info.Size()
			files++
		}
		return err
	}); err != nil {
		b.Fatal(err)
	}
	fmt.Printf("static site: %d files, %.1f MB in all (the wasm modules with their .br and .gz copies)\n", files, float64(total)/1e6)
	site := serveFiles(b, dir, "/")

	var times []float64
	for b.Loop() {
		ctx := newBrowser(b)
		openPage(b, ctx, site+"entities/entities.search")
		ms, err := chromedp.Run(within(b, ctx, 120*time.Second), chromedp.Evaluate[float64](`new Promise((resolve) => {
			const t0 = performance.now();
			document.getElementById("send").click();
			const tick = () => document.getElementById("response-status") ? resolve(performance.now() - t0) : requestAnimationFrame(tick);
			tick();
		})`, chromedp.EvalAwaitPromise))
		if err != nil {
			b.Fatalf("the first Send: %v", err)
		}
		times = append(times, ms)
		_ = chromedp.Cancel(ctx) // close this browser now; the next iteration starts cold
	}
	sort.Float64s(times)
	median := times[len(times)/2]
	b.ReportMetric(median, "ms-first-send")
	fmt.Printf("static site, cold first Send to first answer (sandbox module fetched and started): median %.0f ms of %d\n", median, len(times))
}
