package e2e

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestTheThemeToggleOverridesTheSystemAndPersists picks Dark on a light system, reloads, and
// goes back to System.
func TestTheThemeToggleOverridesTheSystemAndPersists(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	emulate(t, ctx, 1280, 800, "light")
	openPage(t, ctx, base+"/entities")
	background := func() string {
		v, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
		return v
	}
	choose := func(value string) {
		t.Helper()
		if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[bool](`(() => { const s = document.getElementById("theme");
			s.value = `+jsString(value)+`; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)); err != nil {
			t.Fatal(err)
		}
	}
	waitBackground := func(want, when string) {
		t.Helper()
		if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[bool](`getComputedStyle(document.body).backgroundColor === `+jsString(want)+` || null`,
			chromedp.WithPollingTimeout(5*time.Second))); err != nil {
			t.Fatalf("%s: background %s; want %s", when, background(), want)
		}
	}
	const light, dark = "rgb(255, 255, 255)", "rgb(13, 17, 23)"
	waitBackground(light, "on a light system")
	choose("dark")
	waitBackground(dark, "after choosing Dark")
	openPage(t, ctx, base+"/entities")
	waitBackground(dark, "after a reload")
	if v, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("theme").value`)); v != "dark" {
		t.Errorf("after a reload the toggle shows %q; want dark", v)
	}
	choose("")
	waitBackground(light, "after choosing System on a light system")
	emulate(t, ctx, 1280, 800, "dark")
	waitBackground(dark, "System on a dark system")
}

// firstPaintRecorder runs before any script of a new page and records, at DOMContentLoaded
// (the prerendered page parsed, the wasm not yet started), the theme attribute, whether
// go-app's loader is still there (it goes when the wasm runs) and the page's background.
const firstPaintRecorder = `document.addEventListener("DOMContentLoaded", () => {
	window.__loupeFirstPaint = {
		theme: document.documentElement.getAttribute("data-theme") || "",
		loader: document.getElementById("app-wasm-loader") !== null,
		background: getComputedStyle(document.body).backgroundColor,
	};
}, {once: true});`

// TestTheSavedThemeIsAppliedBeforeTheWasmRuns stores Dark on a light system and loads a page
// afresh, from the server and from the static explorer: when the prerendered page has been
// parsed, before the wasm starts, it is already dark (no flash of the system theme).
func TestTheSavedThemeIsAppliedBeforeTheWasmRuns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, site string }{
		{"server", startServer(t) + "/"},
		{"static explorer", serveFiles(t, sharedStatic(t, "/"), "/")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := newBrowser(t)
			// A light system, and the page's own Content-Security-Policy (emulate would bypass it).
			light := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}}
			if _, err := chromedp.Call(within(t, ctx, 10*time.Second), emulation.SetEmulatedMedia, light); err != nil {
				t.Fatal(err)
			}
			openPage(t, ctx, tt.site+"entities")
			if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[bool](`localStorage.setItem("loupe.theme", "dark"), true`)); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Call(within(t, ctx, 10*time.Second), page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: firstPaintRecorder}); err != nil {
				t.Fatal(err)
			}
			openPage(t, ctx, tt.site+"entities")
			var first struct {
				Theme      string `json:"theme"`
				Loader     bool   `json:"loader"`
				Background string `json:"background"`
			}
			got, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[string](`JSON.stringify(window.__loupeFirstPaint || null)`))
			if err != nil || json.Unmarshal([]byte(got), &first) != nil {
				t.Fatalf("nothing recorded at DOMContentLoaded: %q, %v", got, err)
			}
			if !first.Loader {
				t.Fatalf("at DOMContentLoaded the wasm had already run (%s); the test proves nothing", got)
			}
			if first.Theme != "dark" || first.Background != "rgb(13, 17, 23)" {
				t.Errorf("at DOMContentLoaded, before the wasm: %s; want data-theme dark and the dark background rgb(13, 17, 23)", got)
			}
		})
	}
}
