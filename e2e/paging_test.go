package e2e

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// pageIDs reads the id column of the Pages tab's table.
const pageIDs = `Array.from(document.querySelectorAll("#paged-table tbody tr")).map(tr => tr.children[1].textContent)`

// TestPagedListsCanBeWalked walks each pagination style's list in the browser, page by page
// with Next and back with Previous, then gathers it whole with Fetch all pages: every item
// shows exactly once, in the list's order.
func TestPagedListsCanBeWalked(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	tests := []struct {
		op     string
		newest bool // the cursor style lists newest first
	}{
		{"listItemsPageNumber", false},
		{"listItemsLimitOffset", false},
		{"listItemsCursor", true},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			openPage(t, ctx, base+"/pagination/"+tt.op)
			tctx := within(t, ctx, 60*time.Second)
			if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("paged-table"))); err != nil {
				t.Fatalf("sending: %v", err)
			}
			var seen []string
			var pages [][]string
			for {
				ids, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](pageIDs))
				if err != nil || len(ids) == 0 {
					t.Fatalf("page %d: no items (%v)", len(pages)+1, err)
				}
				pages = append(pages, ids)
				seen = append(seen, ids...)
				last, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`document.getElementById("page-next").disabled`))
				if last || len(pages) > 20 {
					break
				}
				if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("page-next"))); err != nil {
					t.Fatal(err)
				}
				if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`(() => { const ids = %s; return ids.length > 0 && ids[0] !== %q || null })()`, pageIDs, ids[0]),
					chromedp.WithPollingTimeout(10*time.Second))); err != nil {
					t.Fatalf("Next after page %d showed no new page: %v", len(pages), err)
				}
			}
			want := make([]string, 95)
			for i := range want {
				want[i] = fmt.Sprint(i + 1)
				if tt.newest {
					want[i] = fmt.Sprint(95 - i)
				}
			}
			if !slices.Equal(seen, want) {
				t.Fatalf("walking with Next showed %d items over %d pages: %v; want 1 to 95 once each, in the list's order", len(seen), len(pages), seen)
			}
			// Previous goes back one page.
			if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("page-prev"))); err != nil {
				t.Fatal(err)
			}
			before := pages[len(pages)-2]
			if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`(() => { const ids = %s; return ids.length === %d && ids[0] === %q || null })()`, pageIDs, len(before), before[0]),
				chromedp.WithPollingTimeout(10*time.Second))); err != nil {
				t.Errorf("Previous from the last page did not show page %d again: %v", len(pages)-1, err)
			}
			// Fetch all pages from there gathers the last two pages, and says it started midway.
			if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("page-all"))); err != nil {
				t.Fatal(err)
			}
			tail := len(before) + len(pages[len(pages)-1])
			midway, err := chromedp.Run(tctx, chromedp.Poll[string](`(s => s && s.includes("from") ? s : null)((document.getElementById("page-summary") || {}).textContent)`,
				chromedp.WithPollingTimeout(20*time.Second)))
			if want := fmt.Sprintf("%d items from 2 pages, from the page shown to the end", tail); err != nil || midway != want {
				t.Errorf("Fetch all pages from page %d: got %q (%v); want %q", len(pages)-1, midway, err, want)
			}
			// Fetch all pages, from the first page.
			openPage(t, ctx, base+"/pagination/"+tt.op)
			tctx = within(t, ctx, 60*time.Second)
			if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("page-all")), chromedp.Click(chromedp.ID("page-all"))); err != nil {
				t.Fatalf("Fetch all pages: %v", err)
			}
			summary, err := chromedp.Run(tctx, chromedp.Poll[string](`(s => s && s.includes("from") ? s : null)((document.getElementById("page-summary") || {}).textContent)`,
				chromedp.WithPollingTimeout(20*time.Second)))
			if want := fmt.Sprintf("95 items from %d pages", len(pages)); err != nil || summary != want {
				t.Fatalf("after Fetch all pages: got %q (%v); want %q", summary, err, want)
			}
			all, _ := chromedp.Run(tctx, chromedp.Evaluate[[]string](pageIDs))
			if !slices.Equal(all, want) {
				t.Errorf("Fetch all pages showed %v; want 1 to 95 once each, in the list's order", all)
			}
		})
	}
}
