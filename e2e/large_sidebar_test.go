package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// sideListState is what the sidebar's list holds: its rows in the page, its scroll height,
// the current link and whether it is in sight in the list.
const sideListState = `(() => {
  const l = document.getElementById('side-list'), cur = l.querySelector('a[aria-current="page"]');
  const r = cur && cur.getBoundingClientRect(), b = l.getBoundingClientRect();
  return {Rows: l.querySelectorAll('li').length, Height: l.scrollHeight, Top: l.scrollTop,
    Current: cur ? cur.dataset.op || cur.dataset.api : '', InSight: !!cur && r.top >= b.top && r.bottom <= b.bottom,
    Ops: [...l.querySelectorAll('a.op-link')].map(a => a.dataset.op), Filter: l.dataset.filter || ''};
})()`

type sideList struct {
	Rows        int
	Height, Top float64
	Current     string
	InSight     bool
	Ops         []string
	Filter      string
}

// TestALargeSidebarKeepsOnlyRowsInSight opens an operation deep in GitHub's 1,223 with the
// keyboard and the filter, and checks that the page holds only the rows near the list's
// viewport while the list scrolls as a whole: the current operation in sight, a filter and
// its clearing, Tab through more links than the page held, a scroll to the end, and axe-core
// on the sidebar.
func TestALargeSidebarKeepsOnlyRowsInSight(t *testing.T) {
	serialCatalog(t)
	base := startServer(t, withGitHub(t))
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/github/repos-get")
	tctx := within(t, ctx, 60*time.Second)
	state := func() sideList {
		t.Helper()
		s, err := chromedp.Run(tctx, chromedp.Evaluate[sideList](sideListState))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	wait := func(what, cond string) {
		t.Helper()
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("%s: %v (list: %+v)", what, err, state())
		}
	}

	wait("the current operation in the list", `!!document.querySelector('#side-list a[aria-current="page"][data-op="github/repos-get"]')`)
	s := state()
	if !s.InSight || s.Rows > 300 || s.Height < 25000 {
		t.Errorf("on repos-get: %d rows in the page, list %v px high, current %q in sight %v; want at most 300 rows of a list over 25,000 px, repos-get in sight",
			s.Rows, s.Height, s.Current, s.InSight)
	}

	// A filter shows its matches from the top at once; Escape brings every row back.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("filter")), chromedp.SendKeys(chromedp.ID("filter"), "issue comment")); err != nil {
		t.Fatal(err)
	}
	wait("the filter's matches", `document.getElementById('side-list').dataset.filter === 'issue comment'`)
	s = state()
	if len(s.Ops) == 0 || s.Top != 0 {
		t.Fatalf("filtered: %+v; want matches from the top", s)
	}
	for _, op := range s.Ops {
		if !strings.HasPrefix(op, "github/") || !strings.Contains(op, "issue") || !strings.Contains(op, "comment") {
			t.Errorf("filtered by \"issue comment\": the list shows %s", op)
		}
	}
	if err := chromedp.Do(tctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	wait("every row back", `document.getElementById('side-list').dataset.filter === '' && document.getElementById('side-list').scrollHeight > 25000`)
	if s = state(); s.Rows > 300 {
		t.Errorf("cleared: %d rows in the page; want at most 300", s.Rows)
	}

	// Tab from the first operation through more links than the page held at first.
	if err := chromedp.Do(tctx, chromedp.Focus(chromedp.CSS(`#side-list a.op-link`))); err != nil {
		t.Fatal(err)
	}
	first, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.activeElement.dataset.op`))
	for range s.Rows + 20 {
		if err := chromedp.Do(tctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatal(err)
		}
	}
	focused, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`(a => {
	  const l = document.getElementById('side-list'), r = a.getBoundingClientRect(), b = l.getBoundingClientRect();
	  return l.contains(a) && a.matches('a') && r.top >= b.top && r.bottom <= b.bottom ? a.dataset.op || a.dataset.api : 'not a link in sight in the list: ' + a.outerHTML.slice(0, 80);
	})(document.activeElement)`))
	if focused == first || strings.HasPrefix(focused, "not") {
		t.Errorf("after %d Tabs from %s the focus is on %s; want a later link, in sight in the list", s.Rows+20, first, focused)
	}

	// The end of the list: its last rows are in the page.
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(l => { l.scrollTop = l.scrollHeight; return true })(document.getElementById('side-list'))`)); err != nil {
		t.Fatal(err)
	}
	wait("the end of the list", `document.getElementById('side-list').style.getPropertyValue('--below') === '0.00px'`)
	if s = state(); s.Rows > 300 {
		t.Errorf("at the end: %d rows in the page; want at most 300", s.Rows)
	}

	emulate(t, ctx, 1280, 900, "light")
	if v := axeViolationsIn(t, ctx, axeSource(t), `document.getElementById("side")`); len(v) > 0 {
		t.Errorf("axe-core on the large sidebar:\n%s", strings.Join(v, "\n"))
	}
}
