package e2e

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAuditConsoleFiltersOneGroup sends the calendar activity list, reads it as console
// sentences on a day-by-day timeline, then filters one group with its chip: the form's type is
// set, the list is asked again, and every record shown is of that group, as a sentence with a
// date.
func TestAuditConsoleFiltersOneGroup(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/reports/activities.list")
	tctx := within(t, ctx, 60*time.Second)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(`#audit-timeline .audit-sentence`)); err != nil {
		t.Fatalf("sending: %v", err)
	}
	const groups = `Array.from(document.querySelectorAll("#audit-timeline .audit-event")).map(e => e.querySelector("button.chip").textContent)`
	all, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](groups))
	if err != nil || len(all) == 0 {
		t.Fatalf("no events shown (%v)", err)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("audit-group-calendar_change"))); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(tctx, chromedp.Poll[[]string](`(g => g.length > 0 && g.every(x => x === "calendar_change") ? g : null)(`+groups+`)`,
		chromedp.WithPollingTimeout(15*time.Second)))
	if err != nil {
		t.Fatalf("after the calendar_change chip: groups %v (%v); want only calendar_change", got, err)
	}
	sentences, _ := chromedp.Run(tctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#audit-timeline .audit-sentence")).map(e => e.textContent)`))
	verbs := regexp.MustCompile(`^\S+ (changed|created|deleted|exported|generated)`)
	for _, s := range sentences {
		if !verbs.MatchString(s) || strings.Contains(s, "{") {
			t.Errorf("sentence %q: want a calendar_change console sentence with its placeholders filled", s)
		}
	}
	days, _ := chromedp.Run(tctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".audit-day-title")).map(e => e.textContent)`))
	dayPattern := regexp.MustCompile(`^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2} [A-Z][a-z]+ \d{4}$`)
	if len(days) == 0 {
		t.Errorf("no day headings on the timeline")
	}
	for _, d := range days {
		if !dayPattern.MatchString(d) {
			t.Errorf("day heading %q: want a date like Friday 20 November 2026", d)
		}
	}
	raw, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.querySelector("#audit-timeline .audit-time").title`))
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d`).MatchString(raw) {
		t.Errorf("time hover: got %q; want the record's raw id.time", raw)
	}
	url, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`location.hash`))
	if !strings.Contains(url, "type=calendar_change") {
		t.Errorf("the form's fragment %q does not hold type=calendar_change", url)
	}
	if dir := os.Getenv("LOUPE_SCREENSHOTS"); dir != "" {
		if png, err := chromedp.Run(tctx, chromedp.FullScreenshot(100)); err == nil {
			_ = os.WriteFile(dir+"/audit-console.png", png, 0o644)
		}
	}
}
