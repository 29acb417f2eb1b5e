package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/app/catalog"
)

// formFirst measures, on an operation page, where its first field and its Send button are:
// their tops and bottoms in the viewport, in CSS px. On a page with its own view (the chat)
// the field is its first input and Send the composer's.
const formFirst = `(() => {
	const root = document.getElementById("op-form") || document.getElementById("chat-view");
	if (!root) return null;
	const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
	const field = [...root.querySelectorAll("input:not([type=hidden]), select, textarea, .toggle")].find(visible);
	const send = document.getElementById("send") || document.getElementById("chat-send");
	const box = el => el ? (r => ({top: Math.round(r.top), bottom: Math.round(r.bottom)}))(el.getBoundingClientRect()) : null;
	return JSON.stringify({field: box(field), send: box(send), height: innerHeight, params: !!root.querySelector(".field")});
})()`

// wordBreaks lists the words of the response column (the preview, the code and the answer)
// that a line break cuts in two: "page_size_qu|ery_param". A word is a run of letters, digits
// and underscores; a line may break at spaces, hyphens and the separators of a URL (/ ? & =),
// never inside one. It reads each character's box, in order, for the first 30,000 characters.
const wordBreaks = `(() => {
	const col = document.querySelector(".op-side-col");
	if (!col) return "[]";
	const word = /[\p{L}\p{N}_]/u;
	const out = [];
	const walk = document.createTreeWalker(col, NodeFilter.SHOW_TEXT);
	let n, prevNode = null, prevTop = null, cur = "", budget = 30000;
	const nextText = el => { let s = el.nextSibling; while (s && s.nodeName === "WBR") s = s.nextSibling; return s; };
	while ((n = walk.nextNode()) && budget > 0) {
		const el = n.parentElement;
		if (!el || el.closest(".visually-hidden, details:not([open]) > :not(summary)") || !el.checkVisibility()) continue;
		if (!prevNode || nextText(prevNode) !== n) { prevTop = null; cur = ""; }
		for (let i = 0; i < n.data.length && budget > 0; i++, budget--) {
			const c = n.data[i];
			if (!word.test(c)) { prevTop = null; cur = ""; continue; }
			const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
			const box = r.getBoundingClientRect();
			if (box.width === 0) continue;
			if (prevTop !== null && box.top > prevTop + 2) out.push(cur + "|" + n.data.slice(i, i + 12));
			prevTop = box.top; cur = (cur + c).slice(-24);
		}
		prevNode = n;
	}
	return JSON.stringify(out.slice(0, 5));
})()`

type box struct{ Top, Bottom int }

// TestLayoutEveryOperationPageShowsItsFormFirst opens every operation page at 1280×900, as a laptop
// shows it: the first field of the form and Send are in the first screen (the form comes right
// under the summary, the reference text below it), and no text in the response column (the
// request, its code, and for a GET the answer) breaks inside a word.
func TestLayoutEveryOperationPageShowsItsFormFirst(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	res, err := http.Get(base + "/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var cat catalog.Catalog
	err = json.NewDecoder(res.Body).Decode(&cat)
	res.Body.Close()
	if err != nil {
		t.Fatalf("reading the catalog: %v", err)
	}
	for _, a := range cat.APIs { // each API in a browser of its own, beside the others
		t.Run(a.Slug, func(t *testing.T) {
			t.Parallel()
			layoutOperations(t, base, a)
		})
	}
}

// layoutOperations opens every operation page of a in a browser and checks its layout.
func layoutOperations(t *testing.T, base string, a catalog.API) {
	ctx := newBrowser(t)
	emulate(t, ctx, 1280, 900, "light")
	for _, op := range a.Operations {
		t.Run(op.ID, func(t *testing.T) {
			openPage(t, ctx, base+"/"+a.Slug+"/"+op.ID)
			raw, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Poll[string](formFirst))
			if err != nil {
				t.Fatalf("no form: %v", err)
			}
			var got struct {
				Field, Send *box
				Height      int
				Params      bool
			}
			if err := json.Unmarshal([]byte(raw), &got); err != nil {
				t.Fatal(err)
			}
			inScreen := func(b *box) bool { return b != nil && b.Top >= 0 && b.Bottom <= got.Height }
			if got.Params && !inScreen(got.Field) {
				t.Errorf("the first field is at %+v; want it within the first screen (0 to %d px)", got.Field, got.Height)
			}
			if !inScreen(got.Send) {
				t.Errorf("Send is at %+v; want it within the first screen (0 to %d px)", got.Send, got.Height)
			}
			checkWordBreaks(t, ctx, "the request")
			if op.Method != "GET" || op.Viewer == catalog.ViewerChat {
				return // sending changes the sandbox or has its own view: the request is enough
			}
			if err := chromedp.Do(within(t, ctx, 30*time.Second), chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
				t.Fatalf("sending: %v", err)
			}
			checkWordBreaks(t, ctx, "the answer")
		})
	}
}

// checkWordBreaks fails the test when a word of the response column is cut by a line break.
func checkWordBreaks(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	if cut := wordBreakCuts(t, ctx); len(cut) > 0 {
		t.Errorf("with %s, the response column breaks %d words inside (shown as before|after): %s", what, len(cut), strings.Join(cut, ", "))
	}
}

// wordBreakCuts returns the first words of the response column that a line break cuts, as
// before|after.
func wordBreakCuts(t *testing.T, ctx context.Context) []string {
	t.Helper()
	raw, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Evaluate[string](wordBreaks))
	if err != nil {
		t.Fatalf("reading the response column: %v", err)
	}
	var cut []string
	if err := json.Unmarshal([]byte(raw), &cut); err != nil {
		t.Fatal(err)
	}
	return cut
}

// TestLayoutWordBreakCheckSeesACut shows that the check above can fail: a long name squeezed
// into a narrow box that may break anywhere is reported cut, the same name given room is not.
func TestLayoutWordBreakCheckSeesACut(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	emulate(t, ctx, 1280, 900, "light")
	openPage(t, ctx, base+"/pagination/listItemsCursor")
	tests := []struct {
		name, style string
		wantCut     bool
	}{
		{"squeezed, breaking anywhere", "width: 5ch; overflow-wrap: anywhere", true},
		{"with room", "width: 40ch", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			put := `(() => { const d = document.createElement("div"); d.id = "wrap-probe"; d.className = "mono";
				d.style.cssText = ` + jsString(tt.style) + `; d.textContent = "page_size_query_param";
				document.querySelector(".op-side-col").prepend(d); return true; })()`
			if _, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Evaluate[bool](put)); err != nil {
				t.Fatalf("adding the probe: %v", err)
			}
			defer chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Evaluate[bool](`(document.getElementById("wrap-probe").remove(), true)`))
			cut := wordBreakCuts(t, ctx)
			found := false
			for _, c := range cut {
				found = found || strings.Contains("page_size_query_param", strings.ReplaceAll(c, "|", ""))
			}
			if found != tt.wantCut {
				t.Errorf("got cuts %q; want the probe reported cut: %v", cut, tt.wantCut)
			}
		})
	}
}
