package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
	"loupe/server/config"
)

// githubDocument is GitHub's REST API description (npm @octokit/openapi, installed by make
// deps): 1,223 operations, the large real-world document of the benchmarks.
const githubDocument = "node_modules/@octokit/openapi/generated/api.github.com.json"

// withGitHub adds GitHub's document as an API of your own, apis.github.
func withGitHub(tb testing.TB) func(*server.Config) {
	return func(c *server.Config) {
		settings, err := config.Parse([]byte("apis:\n  github:\n    openapi: "+githubDocument+"\n"), "loupe.yaml", func(string) (string, bool) { return "", false })
		if err != nil {
			tb.Fatalf("GitHub's document (run make deps, which installs e2e/'s npm packages): %v", err)
		}
		c.Settings = settings
	}
}

// largeDocProbe measures, in the page, from the moment a filter is typed or a link clicked
// until the frame that shows the result has been painted (the first task after the
// animation frame in which the result is in the DOM), and records every long task. A link
// the list does not hold (it holds the rows in sight) is first found with the filter.
const largeDocProbe = `(() => {
  window.__lt = [];
  new PerformanceObserver(l => { for (const e of l.getEntries()) window.__lt.push({start: e.startTime, dur: e.duration}); }).observe({entryTypes: ['longtask']});
  const painted = (t0, done) => new Promise((resolve, reject) => {
    const frame = () => {
      if (done()) { setTimeout(() => resolve(performance.now() - t0), 0); return; }
      if (performance.now() - t0 > 30000) { reject(new Error('not shown after 30 s')); return; }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  window.__filter = text => {
    const box = document.getElementById('filter');
    const list = () => document.querySelector('#side .api-list');
    const t0 = performance.now();
    box.value = text;
    box.dispatchEvent(new InputEvent('input', {bubbles: true, data: text.slice(-1), inputType: 'insertText'}));
    return painted(t0, () => list() && (list().dataset.filter || "") === text);
  };
  window.__open = async id => {
    const sel = '#side a.op-link[data-op="github/' + id + '"]';
    if (!document.querySelector(sel)) await window.__filter(id); // the list holds only the rows in sight
    const a = document.querySelector(sel);
    if (!a) throw new Error('no sidebar link to ' + id);
    const t0 = performance.now();
    window.__lt = [];
    a.click();
    return painted(t0, () => document.querySelector('article.op-page[data-op="github/' + id + '"] form, article.op-page[data-op="github/' + id + '"] .op-head'))
      .then(ms => ({MS: ms, Longest: Math.max(0, ...window.__lt.map(e => e.dur))}));
  };
  return true;
})()`

// BenchmarkLargeDocument opens Loupe with GitHub's document added (apis.github) and reports
// the medians of: the sidebar filter's keystroke-to-paint time (filtering 1,300 operations:
// every keystroke, and apart the ones that clear the filter and bring every row back), and
// opening an operation from the sidebar (click to painted page) with the longest main thread
// task seen meanwhile.
func BenchmarkLargeDocument(b *testing.B) {
	base := startServer(b, withGitHub(b))
	ctx := newBrowser(b)
	openPage(b, ctx, base+"/github")
	if _, err := chromedp.Run(within(b, ctx, 10*time.Second), chromedp.Evaluate[bool](largeDocProbe)); err != nil {
		b.Fatal(err)
	}
	words := []string{"r", "re", "rep", "repo", "repos", "repos s", "repos se", "repos sec", "", "pull", "issue comment", ""}
	ops := []string{"repos-get", "pulls-list", "issues-create-comment", "actions-list-workflow-runs", "users-get-authenticated"}
	var filter, clear, open, longest []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, w := range words {
			ms, err := chromedp.Run(within(b, ctx, 40*time.Second), chromedp.Evaluate[float64](fmt.Sprintf("window.__filter(%q)", w), chromedp.EvalAwaitPromise))
			if err != nil {
				b.Fatalf("filter %q: %v", w, err)
			}
			filter = append(filter, ms)
			if w == "" {
				clear = append(clear, ms)
			}
		}
		id := ops[i%len(ops)]
		got, err := chromedp.Run(within(b, ctx, 40*time.Second), chromedp.Evaluate[struct{ MS, Longest float64 }](fmt.Sprintf("window.__open(%q)", id), chromedp.EvalAwaitPromise))
		if err != nil {
			b.Fatalf("open %s: %v", id, err)
		}
		open, longest = append(open, got.MS), append(longest, got.Longest)
		openPage(b, ctx, base+"/github")
		if _, err := chromedp.Run(within(b, ctx, 10*time.Second), chromedp.Evaluate[bool](largeDocProbe)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(median(filter), "ms-filter-to-paint")
	b.ReportMetric(median(clear), "ms-clear-to-paint")
	b.ReportMetric(median(open), "ms-open-operation")
	b.ReportMetric(median(longest), "ms-longest-task-on-open")
	raw, _ := json.Marshal(map[string]any{"filter": filter, "clear": clear, "open": open, "longest": longest})
	b.Logf("samples: %s", raw)
}

// median returns the middle value of xs (the mean of the two middle ones for an even count).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
