package e2e

import (
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestFetchAllPagesCountsTheItemsOfEveryList gathers lists whose items are not under
// "results" (the reports activities and the script processes): the summary counts the items
// gathered, and the table (the audit console, for the activities) shows them all.
func TestFetchAllPagesCountsTheItemsOfEveryList(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	summaryRE := regexp.MustCompile(`^(\d+) items? from (\d+) pages?`)
	for _, tt := range []struct{ path, frag string }{
		{"/reports/activities.list", "#v1&path:userKey=all&path:applicationName=calendar&maxResults=500"},
		{"/script/processes.list", "#v1&pageSize=2"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			openPage(t, ctx, base+tt.path+tt.frag)
			tctx := within(t, ctx, 150*time.Second) // a loaded CI machine renders the 2,402 records slowly
			if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send"))); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(b => b && !b.disabled && !document.querySelector("#send[aria-busy=true]"))(document.getElementById("page-next")) || null`,
				chromedp.WithPollingTimeout(30*time.Second))); err != nil {
				t.Fatalf("no answer with a next page: %v", err)
			}
			if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("page-all"))); err != nil {
				t.Fatalf("Send, then Fetch all pages: %v", err)
			}
			summary, err := chromedp.Run(tctx, chromedp.Poll[string](`(s => s && s.includes("from") ? s : null)((document.getElementById("page-summary") || {}).textContent)`,
				chromedp.WithPollingTimeout(90*time.Second)))
			if err != nil {
				bar, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(".page-bar")||{}).textContent + " / " + location.hash + " / " + (document.querySelector(".notice")||{}).textContent`))
				t.Fatalf("no summary after Fetch all pages (%s): %v", bar, err)
			}
			m := summaryRE.FindStringSubmatch(summary)
			if m == nil {
				t.Fatalf("summary %q; want \"N items from M pages\"", summary)
			}
			items, _ := strconv.Atoi(m[1])
			pages, _ := strconv.Atoi(m[2])
			rows, err := chromedp.Run(tctx, chromedp.Evaluate[int](`document.querySelectorAll("#paged-table tbody tr, #audit-timeline .audit-record").length`))
			if err != nil {
				t.Fatalf("counting the table's rows after %q: %v", summary, err)
			}
			if pages < 2 || items < pages || rows != items {
				t.Errorf("summary %q with %d rows in the table; want at least 2 pages, items counted, one row per item", summary, rows)
			}
			t.Logf("%s: %s", tt.path, summary)
		})
	}
}

// TestFetchAllPagesFollowsALinkHeader gathers the list whose links are in a Link header (the
// body is the bare array of a page's items): Fetch all pages follows each page's rel="next"
// to the end and shows every one of the 95 items once, in order.
func TestFetchAllPagesFollowsALinkHeader(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/pagination/listItemsLinkHeader#v1&page_size=7")
	tctx := within(t, ctx, 60*time.Second)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(b => b && !b.disabled && !document.querySelector("#send[aria-busy=true]"))(document.getElementById("page-all")) || null`,
		chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("Fetch all pages is not enabled on the first page of the Link-header list: %v", err)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("page-all"))); err != nil {
		t.Fatal(err)
	}
	summary, err := chromedp.Run(tctx, chromedp.Poll[string](`(s => s && s.includes(" from ") ? s : null)((document.getElementById("page-summary") || {}).textContent)`,
		chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Fatalf("Fetch all pages did not finish: %v", err)
	}
	if want := "95 items from 14 pages"; summary != want {
		t.Errorf("summary: got %q; want %q", summary, want)
	}
	ids, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](pageIDs))
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, 95)
	for i := range want {
		want[i] = strconv.Itoa(i + 1)
	}
	if !slices.Equal(ids, want) {
		t.Errorf("gathered ids: got %v; want 1 to 95, each once, in order", ids)
	}
}
