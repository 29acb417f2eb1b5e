package markdown

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// answer32k builds a model answer of about 32,000 tokens (of about 4 bytes each), shaped like
// the chat sandbox's: a plan in prose, lists and a table, one long ```html single-file app,
// then notes. It returns the answer cut into tokens.
func answer32k() []string {
	var b strings.Builder
	b.WriteString("# Plan\n\nI will build a **single-file** web app. Here is the plan:\n\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d. Step %d: wire the `component-%d` to the store, then render it with care.\n", i+1, i+1, i)
	}
	b.WriteString("\n| Part | Purpose | Size |\n|:--|:--|--:|\n")
	for i := range 30 {
		fmt.Fprintf(&b, "| part-%d | handles _event_ %d | %d kB |\n", i, i, i*3)
	}
	for i := range 60 {
		fmt.Fprintf(&b, "\n## Section %d\n\nParagraph %d explains the design with [a link](https://example.com/%d) and some `inline code`; it goes on for a while so that the paragraph has the length of a real one, with *emphasis* here and there.\n\n- point one of %d\n- point two\n", i, i, i, i)
	}
	b.WriteString("\n```html\n<!doctype html>\n<html lang=\"en\">\n<head>\n<style>\n")
	for i := range 700 {
		fmt.Fprintf(&b, ".c%d { margin: %dpx; color: #%06x; }\n", i, i%17, i*4099%0xffffff)
	}
	b.WriteString("</style>\n</head>\n<body>\n<script>\n")
	for i := range 1300 {
		fmt.Fprintf(&b, "  function handler%d(e) { const v = e.target.value * %d; render(\"<b>\" + v + \"</b>\"); }\n", i, i)
	}
	b.WriteString("</script>\n</body>\n</html>\n```\n\nThat's the whole app. Notes:\n\n")
	for i := range 40 {
		fmt.Fprintf(&b, "> Note %d: remember to test in a sandboxed iframe.\n\n", i)
	}
	text := b.String()
	var tokens []string
	for len(text) > 0 {
		n := min(4, len(text))
		tokens = append(tokens, text[:n])
		text = text[n:]
	}
	return tokens
}

// BenchmarkStream32k feeds a 32,000-token answer token by token, rendering after every token
// as the chat view would with no coalescing at all, and reports the slowest and the median
// update, over the runs after the first; the first, cold run's slowest update is reported on
// its own. The budget is 50 ms per main-thread task. Run it in the wasm too:
// GOOS=js GOARCH=wasm go test -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" -run X -bench Stream32k -benchtime 3x ./app/markdown
func BenchmarkStream32k(b *testing.B) {
	tokens := answer32k()
	if len(tokens) < 32000 {
		b.Fatalf("got %d tokens; want 32000 or more", len(tokens))
	}
	tokens = tokens[:32000]
	r := NewRenderer()
	var first, worst, p99, median time.Duration
	runs := 0
	for b.Loop() {
		s := NewStream(r)
		times := make([]time.Duration, len(tokens))
		for i, tok := range tokens {
			start := time.Now()
			s.Write(tok)
			view(s)
			times[i] = time.Since(start)
		}
		s.Close()
		view(s)
		slices.Sort(times)
		if runs++; runs == 1 {
			first = times[len(times)-1]
			continue
		}
		worst = max(worst, times[len(times)-1])
		p99, median = times[len(times)*99/100], times[len(times)/2]
	}
	if runs < 2 {
		b.Skip("needs two runs: the first one warms up (JIT tiers, lazy initialization); use -benchtime 3x")
	}
	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
	b.ReportMetric(ms(worst), "max-ms/update")
	b.ReportMetric(ms(p99), "p99-ms/update")
	b.ReportMetric(ms(median), "median-ms/update")
	b.ReportMetric(ms(first), "first-run-max-ms/update")
	b.Logf("32000 tokens, %s/%s: max %.2f ms, p99 %.3f ms, median %.3f ms per update; first (cold) run max %.2f ms (budget 50 ms per main-thread task)",
		runtime.GOOS, runtime.GOARCH, ms(worst), ms(p99), ms(median), ms(first))
}

// view reads what the chat view shows: the HTML of every block, and an open code block's text
// (which it shows as text nodes, not HTML).
func view(s *Stream) {
	for _, b := range s.Completed() {
		_ = b.HTML()
	}
	if t := s.Tail(); t.Code && t.Open {
		_ = t.Text
	} else {
		_ = t.HTML()
	}
}

func TestAnswer32kRendersLikeTheWholeDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	text := strings.Join(answer32k(), "")
	r := NewRenderer()
	s := NewStream(r)
	for i := 0; i < len(text); i += 4 {
		s.Write(text[i:min(i+4, len(text))])
	}
	s.Close()
	if got, want := s.HTML(), r.Render(text); got != want {
		t.Errorf("got %d bytes of HTML; want %d, the whole document's", len(got), len(want))
	}
}
