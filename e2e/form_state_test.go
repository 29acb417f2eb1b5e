package e2e

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// formDisagreements compares what the form shows with the form state and the request preview.
// Each control's live value must equal what the form rendered for it (data-shown, absent when
// empty); every query or path value shown must be in the previewed URL, and every query
// parameter of the previewed URL must be shown by its field. It returns the disagreements.
const formDisagreements = `(() => {
	const out = [];
	const url = new URL(document.querySelector("#preview .req-url").textContent, location.origin);
	const controls = Array.from(document.querySelectorAll("#op-form input[data-key]:not([type=checkbox]), #op-form select[data-key]"));
	const shown = {};
	for (const el of controls) {
		const key = el.dataset.key, want = el.dataset.shown || "";
		if (el.value !== want) out.push(key + ": the input shows " + JSON.stringify(el.value) + ", the form state is " + JSON.stringify(want));
		(shown[key] = shown[key] || []).push(el.value);
	}
	for (const [key, vals] of Object.entries(shown)) {
		const [where, name] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
		const full = vals.filter(v => v !== "");
		if (where === "query") {
			const sent = url.searchParams.getAll(name).flatMap(v => v.split(","));
			for (const v of full) if (!sent.includes(v)) out.push(key + ": shows " + JSON.stringify(v) + " but the preview sends " + JSON.stringify(sent));
			if (full.length === 0 && sent.length > 0) out.push(key + ": shows nothing but the preview sends " + JSON.stringify(sent));
		}
		if (where === "path") {
			for (const v of full) if (!decodeURIComponent(url.pathname).includes(v)) out.push(key + ": shows " + JSON.stringify(v) + " but the preview's path is " + url.pathname);
		}
	}
	return out;
})()`

// lastSent is the path and query of the last request the page made to /proxy/.
const lastSent = `(() => {
	const rs = performance.getEntriesByType("resource").filter(e => new URL(e.name).pathname.startsWith("/proxy/"));
	if (rs.length === 0) return "";
	const u = new URL(rs[rs.length - 1].name);
	return u.pathname + u.search;
})()`

// checkFormAgrees fails the test when the form shows anything but its state and the preview,
// then sends the request and fails when what went out differs from the preview.
func checkFormAgrees(t *testing.T, ctx context.Context, after string) {
	t.Helper()
	tctx := within(t, ctx, 30*time.Second)
	// The inputs are synchronized right after the render: wait for agreement, then say what differs.
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(`+formDisagreements+`).length === 0 || null`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		got, _ := chromedp.Run(tctx, chromedp.Evaluate[[]string](formDisagreements))
		t.Fatalf("after %s the form does not show what it sends: %q", after, got)
	}
	preview, err := chromedp.Run(tctx, chromedp.Text(chromedp.CSS("#preview .req-url")))
	if err != nil {
		t.Fatal(err)
	}
	before, _ := chromedp.Run(tctx, chromedp.Evaluate[int](`performance.getEntriesByType("resource").filter(e => new URL(e.name).pathname.startsWith("/proxy/")).length`))
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	sent, err := chromedp.Run(tctx, chromedp.Poll[string](fmt.Sprintf(`performance.getEntriesByType("resource").filter(e => new URL(e.name).pathname.startsWith("/proxy/")).length > %d ? %s : null`, before, lastSent),
		chromedp.WithPollingTimeout(15*time.Second)))
	if err != nil {
		t.Fatalf("after %s, Send sent nothing: %v", after, err)
	}
	want, _ := url.Parse(preview)
	if got := sent; got != want.RequestURI() {
		t.Errorf("after %s: sent %s; the preview shows %s", after, got, want.RequestURI())
	}
}

// clickAndWait clicks a button and waits until the expression holds.
func clickAndWait(t *testing.T, ctx context.Context, sel, cond string) {
	t.Helper()
	tctx := within(t, ctx, 30*time.Second)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("clicking %s: %v", sel, err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](cond+" || null", chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		preview, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#preview .req-url")))
		t.Fatalf("after clicking %s, %s never held (the preview shows %s): %v", sel, cond, preview, err)
	}
}

// TestTheFormShowsWhatItSends empties fields from the form state in each way a user can (Reset,
// Previous back to page 1, removing a list's only value, another operation) and checks that
// every input then shows the state, the preview and the request sent.
func TestTheFormShowsWhatItSends(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	previewHas := func(s string) string {
		return fmt.Sprintf(`document.querySelector("#preview .req-url").textContent.includes(%s)`, jsString(s))
	}
	previewLacks := func(s string) string { return "!" + previewHas(s) }

	t.Run("after Reset", func(t *testing.T) {
		openPage(t, ctx, base+"/entities/entities.search")
		setInput(t, ctx, "query:query", "paris")
		setInput(t, ctx, "query:types", "Place")
		setInput(t, ctx, "query:limit", "5")
		clickAndWait(t, ctx, "#reset-form", previewLacks("paris")+" && "+previewLacks("limit=5"))
		checkFormAgrees(t, ctx, "Reset")
	})
	t.Run("after Previous back to page 1", func(t *testing.T) {
		for _, tt := range []struct{ op, param string }{{"listItemsPageNumber", "page"}, {"listItemsLimitOffset", "offset"}} {
			openPage(t, ctx, base+"/pagination/"+tt.op)
			tctx := within(t, ctx, 30*time.Second)
			if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("page-next"))); err != nil {
				t.Fatal(err)
			}
			clickAndWait(t, ctx, "#page-next", previewHas(tt.param+"=")+` && !document.getElementById("page-prev").disabled`)
			if got := inputValues(t, ctx, "query:"+tt.param); len(got) == 0 || got[0] == "" {
				t.Fatalf("%s: after Next the %s field shows %q; want the next page's value", tt.op, tt.param, got)
			}
			clickAndWait(t, ctx, "#page-prev", previewLacks(tt.param+"="+inputValues(t, ctx, "query:"+tt.param)[0]))
			checkFormAgrees(t, ctx, tt.op+": Previous back to page 1")
		}
	})
	t.Run("after removing the only value of a repeatable field", func(t *testing.T) {
		openPage(t, ctx, base+"/entities/entities.search")
		setInput(t, ctx, "query:types", "Person")
		clickAndWait(t, ctx, field("query:types")+" .btn-icon", previewLacks("Person"))
		checkFormAgrees(t, ctx, "removing the only value of types")
	})
	t.Run("across operations", func(t *testing.T) {
		openPage(t, ctx, base+"/entities/entities.search")
		setInput(t, ctx, "query:query", "paris")
		clickAndWait(t, ctx, `#side a[href="/docs/listProjects"]`, `document.querySelector(".op-page").dataset.op === "docs/listProjects"`)
		checkFormAgrees(t, ctx, "going from entities.search to docs listProjects")
		if got := inputValues(t, ctx, "query:slug"); len(got) != 1 || got[0] != "" {
			t.Errorf("docs listProjects slug shows %q; want it empty", got)
		}
	})
}
