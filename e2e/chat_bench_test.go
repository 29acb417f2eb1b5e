package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
)

// watchMainThread records, in the page, every long task Chromium reports (a main-thread task
// over 50 ms) and the gaps between animation frames, which bound how long the main thread was
// busy at a stretch.
const watchMainThread = `(() => {
  window.__longTasks = []; window.__frameGaps = [];
  new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({entryTypes: ['longtask']});
  let last = performance.now();
  const tick = t => { window.__frameGaps.push(t - last); last = t; if (!window.__stopFrames) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  return true;
})()`

// mainThreadReport is what watchMainThread collected.
type mainThreadReport struct {
	LongTasks   int     `json:"longTasks"`
	MaxLongTask float64 `json:"maxLongTask"`
	MaxFrameGap float64 `json:"maxFrameGap"`
	MedianGap   float64 `json:"medianGap"`
	AnswerChars int     `json:"answerChars"`
	Tokens      string  `json:"tokens"`
}

const readMainThread = `(() => {
  window.__stopFrames = true;
  const g = window.__frameGaps.slice(1).sort((a, b) => a - b);
  const md = document.querySelector('.chat-msg.assistant .chat-md');
  const m = document.getElementById('chat-metrics');
  return {
    longTasks: window.__longTasks.length,
    maxLongTask: window.__longTasks.length ? Math.max(...window.__longTasks) : 0,
    maxFrameGap: g.length ? g[g.length - 1] : 0,
    medianGap: g.length ? g[Math.floor(g.length / 2)] : 0,
    answerChars: md ? md.textContent.length : 0,
    tokens: m ? m.textContent : '',
  };
})()`

// BenchmarkChatStream32k streams a 32,000-token answer into the chat view in headless Chromium
// and reports the longest main-thread task (budget: every task under 50 ms, which needs the
// Markdown rendered incrementally, not whole on every token). Each iteration is one answer.
func BenchmarkChatStream32k(b *testing.B) {
	for _, pace := range []float64{0, 2000} {
		name := "unpaced"
		if pace > 0 {
			name = fmt.Sprintf("%.0f-tokens-per-s", pace)
		}
		b.Run(name, func(b *testing.B) {
			base := startServer(b, func(c *server.Config) { c.ChatTokensPerSecond = pace })
			ctx := newBrowser(b)
			var last mainThreadReport
			for b.Loop() {
				openPage(b, ctx, base+"/chat/createChatCompletion")
				if err := chromedp.Do(within(b, ctx, 30*time.Second),
					chromedp.WaitVisible(chromedp.ID("chat-view")),
					chromedp.Evaluate[chromedp.Void](watchMainThread),
					chromedp.SendKeys(chromedp.ID("chat-input"), "write a 32000 token answer"),
					chromedp.Click(chromedp.ID("chat-send")),
					chromedp.WaitVisible(chromedp.CSS(".chat-msg.assistant")),
				); err != nil {
					b.Fatalf("sending the prompt: %v", err)
				}
				if err := chromedp.Do(within(b, ctx, 5*time.Minute),
					chromedp.WaitVisible(chromedp.CSS(`.chat-msg.assistant[aria-busy="false"]`)),
				); err != nil {
					b.Fatalf("waiting for the answer to end: %v", err)
				}
				r, err := chromedp.Run(ctx, chromedp.Evaluate[mainThreadReport](readMainThread))
				if err != nil {
					b.Fatalf("reading the measurements: %v", err)
				}
				if r.AnswerChars < 50_000 {
					b.Fatalf("the answer has %d characters; want a 32,000-token answer (metrics: %s)", r.AnswerChars, r.Tokens)
				}
				last = r
			}
			b.ReportMetric(last.MaxLongTask, "max-longtask-ms")
			b.ReportMetric(float64(last.LongTasks), "longtasks")
			b.ReportMetric(last.MaxFrameGap, "max-frame-gap-ms")
			b.ReportMetric(last.MedianGap, "median-frame-gap-ms")
			b.Logf("%s: %d long tasks, longest %.0f ms; longest frame gap %.0f ms (median %.1f ms); anchor: every main-thread task under 50 ms; answer %d chars (%s)",
				name, last.LongTasks, last.MaxLongTask, last.MaxFrameGap, last.MedianGap, last.AnswerChars, last.Tokens)
		})
	}
}
