package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// startGatedServer starts the real server with app.wasm held back: a request for it waits
// until release is called (or the test ends), so a test can act on the prerendered page
// before the wasm runs.
func startGatedServer(t *testing.T) (base string, release func()) {
	t.Helper()
	return holdingServer(t, func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/app.wasm") })
}

// TestThePrerenderedPageIsUsableWhileTheWasmLoads holds app.wasm back and checks the page a
// user sees meanwhile: no loader covers it (the field under the pointer is the field, the
// loader is a small pill), Send shows it is still loading, and a value typed into the
// prerendered form is still in the field, and in the request the app would send, after the
// wasm has replaced the page.
func TestThePrerenderedPageIsUsableWhileTheWasmLoads(t *testing.T) {
	t.Parallel()
	base, release := startGatedServer(t)
	ctx := newBrowser(t)
	field := "#f-query-query"
	if err := chromedp.Do(within(t, ctx, 30*time.Second),
		chromedp.Navigate(base+"/entities/entities.search"),
		chromedp.WaitVisible(chromedp.CSS(field)),
	); err != nil {
		t.Fatalf("opening the prerendered page: %v", err)
	}
	type cover struct {
		Loader     bool    `json:"loader"`
		OnTop      bool    `json:"onTop"`
		LoaderArea float64 `json:"loaderArea"`
		SendBusy   string  `json:"sendBusy"`
	}
	got, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[cover](`(() => {
		const f = document.querySelector("`+field+`");
		f.scrollIntoView({block: "center"});
		const r = f.getBoundingClientRect();
		const loader = document.getElementById("app-wasm-loader");
		const lr = loader ? loader.getBoundingClientRect() : {width: 0, height: 0};
		return {
			loader: loader !== null,
			onTop: document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === f,
			loaderArea: lr.width * lr.height / (innerWidth * innerHeight),
			sendBusy: document.getElementById("send").getAttribute("aria-disabled") || "",
		};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if !got.Loader {
		t.Fatal("the wasm runs although app.wasm is held back: the test cannot see the prerendered page")
	}
	if !got.OnTop {
		t.Error("something covers the prerendered form while the wasm loads; want the field itself under the pointer")
	}
	if got.LoaderArea > 0.02 {
		t.Errorf("the loading indicator covers %.0f%% of the window; want a small indicator (at most 2%%)", got.LoaderArea*100)
	}
	if got.SendBusy != "true" {
		t.Errorf("Send before the wasm runs: got aria-disabled %q; want \"true\"", got.SendBusy)
	}

	if err := chromedp.Do(within(t, ctx, 10*time.Second),
		chromedp.SendKeys(chromedp.CSS(field), "taylor swift"),
	); err != nil {
		t.Fatalf("typing into the prerendered form: %v", err)
	}
	if _, err := chromedp.Run(within(t, ctx, 10*time.Second),
		chromedp.Evaluate[bool](`(window.__prerendered = document.querySelector("`+field+`")) !== null`)); err != nil {
		t.Fatalf("typing into the prerendered form: %v", err)
	}
	release()
	if err := chromedp.Do(within(t, ctx, 60*time.Second), chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader"))); err != nil {
		t.Fatalf("the wasm did not start once released: %v", err)
	}
	if _, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Poll[bool](`(() => {
			const f = document.querySelector("`+field+`");
			return f !== null && f !== window.__prerendered && f.value === "taylor swift" &&
				document.getElementById("curl").textContent.includes("taylor") ? true : null;
		})()`)); err != nil {
		value, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[string](`document.querySelector("`+field+`").value + " | " + (document.getElementById("curl") || {}).textContent`))
		t.Fatalf("after the wasm took over, want the typed value in the field and the request; got %q (%v)", value, err)
	}
	focused, err := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[string](`document.activeElement ? document.activeElement.id : ""`))
	if err != nil {
		t.Fatal(err)
	}
	if "#"+focused != field {
		t.Errorf("after the takeover the focus is on %q; want it back in the field typed into", focused)
	}
}
