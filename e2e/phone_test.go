package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAPhoneSeesThePageNotTheMenu opens every guide and an operation of each API at a phone's
// size (390x844): no page is wider than the screen, the operation list is hidden behind the menu
// button, and the button shows and hides it.
func TestAPhoneSeesThePageNotTheMenu(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	cat := fetchCatalog(t, base)
	ctx := newBrowser(t)
	emulate(t, ctx, 390, 844, "light")
	paths := []string{"/", "/no-such-page"}
	for _, a := range cat.APIs {
		paths = append(paths, "/"+a.Slug, "/"+a.Slug+"/"+a.Operations[0].ID)
	}
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			openPage(t, ctx, base+path)
			tctx := within(t, ctx, 20*time.Second)
			wide, _ := chromedp.Run(tctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
			if wide > 0 {
				culprit, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`(() => {
					const w = window.innerWidth;
					const el = Array.from(document.querySelectorAll("#main *")).filter(e => e.getBoundingClientRect().right > w + 1).pop();
					return el ? el.tagName + "." + el.className : "";
				})()`))
				t.Errorf("the page is %dpx wider than the screen (%s)", wide, culprit)
			}
			shown := func() bool {
				v, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`document.getElementById("side-menu").offsetParent !== null`))
				return v
			}
			if shown() {
				t.Fatalf("the operation list shows before the menu button is used")
			}
			if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("menu-button"))); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.getElementById("side-menu").offsetParent !== null && document.getElementById("menu-button").getAttribute("aria-expanded") === "true" || null`,
				chromedp.WithPollingTimeout(5*time.Second))); err != nil {
				t.Fatalf("the menu button did not show the operation list: %v", err)
			}
			if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("menu-button"))); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.getElementById("side-menu").offsetParent === null || null`,
				chromedp.WithPollingTimeout(5*time.Second))); err != nil {
				t.Fatalf("the menu button did not hide the operation list again: %v", err)
			}
		})
	}
}
