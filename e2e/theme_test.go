package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestTheThemeToggleOverridesTheSystemAndPersists picks Dark on a light system, reloads, and
// goes back to System.
func TestTheThemeToggleOverridesTheSystemAndPersists(t *testing.T) {
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
