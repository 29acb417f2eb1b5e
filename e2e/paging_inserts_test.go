package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestFetchAllCursorWhileInserting gathers the cursor list with Fetch all pages while a
// background loop inserts items (new ones, newest, and back-dated ones among the pages still
// to come): the cursor's promise is that every original item shows exactly once.
func TestFetchAllCursorWhileInserting(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/pagination/listItemsCursor")
	tctx := within(t, ctx, 60*time.Second)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("page-all"))); err != nil {
		t.Fatalf("sending: %v", err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	inserted := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := 0; ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			body := `{"name":"Inserted"}`
			if n%2 == 1 { // dated back among the items of later pages
				body = fmt.Sprintf(`{"name":"Back-dated","created":"2026-0%d-%02dT%02d:%02d:00Z"}`, 1+n%3, 1+n%28, n%24, n%60)
			}
			resp, err := http.Post(base+"/sandbox/pagination/items/", "application/json", strings.NewReader(body))
			if err == nil {
				if resp.StatusCode == http.StatusCreated {
					inserted++
				}
				resp.Body.Close()
			}
			time.Sleep(3 * time.Millisecond)
		}
	}()
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("page-all"))); err != nil {
		close(stop)
		t.Fatal(err)
	}
	summary, err := chromedp.Run(tctx, chromedp.Poll[string](`(s => s && s.includes(" from ") ? s : null)((document.getElementById("page-summary") || {}).textContent)`,
		chromedp.WithPollingTimeout(30*time.Second)))
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatalf("Fetch all pages did not finish: %v", err)
	}
	ids, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](pageIDs))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, id := range ids {
		seen[id]++
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("item %s shown %d times; want once", id, n)
		}
	}
	for i := 1; i <= 95; i++ {
		if seen[fmt.Sprint(i)] != 1 {
			t.Errorf("original item %d shown %d times; want once", i, seen[fmt.Sprint(i)])
		}
	}
	if inserted == 0 {
		t.Errorf("no item was inserted while fetching; the test proves nothing")
	}
	t.Logf("%s; %d items inserted meanwhile, %d of them among the gathered pages", summary, inserted, len(ids)-95)
}

// TestLinkHeaderListIsWalked walks the list whose links are in a Link header with Next and
// Previous.
func TestLinkHeaderListIsWalked(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/pagination/listItemsLinkHeader")
	tctx := within(t, ctx, 60*time.Second)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("paged-table"))); err != nil {
		t.Fatalf("sending: %v", err)
	}
	wantPage := func(first, last int) {
		t.Helper()
		want := []string{}
		for i := first; i <= last; i++ {
			want = append(want, fmt.Sprint(i))
		}
		got, err := chromedp.Run(tctx, chromedp.Poll[[]string](fmt.Sprintf(`(ids => ids.length > 0 && ids[0] === %q ? ids : null)(%s)`, want[0], pageIDs),
			chromedp.WithPollingTimeout(10*time.Second)))
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("page: got %v (%v); want %v", got, err, want)
		}
	}
	wantPage(1, 10)
	if prevOff, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`document.getElementById("page-prev").disabled`)); !prevOff {
		t.Errorf("Previous is enabled on the first page")
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("page-next"))); err != nil {
		t.Fatal(err)
	}
	wantPage(11, 20)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("page-next"))); err != nil {
		t.Fatal(err)
	}
	wantPage(21, 30)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("page-prev"))); err != nil {
		t.Fatal(err)
	}
	wantPage(11, 20)
}
