package e2e

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// The browser tests share one headless Chromium and open each test's pages in a browser
// context of its own: cookies, storage, the HTTP cache and service workers apart, as a fresh
// profile keeps them, without starting a browser and creating a profile for every test (in
// clean-clone CI runs on two cores the package took 803–913 s this way, 997 s with a browser
// each).
var shared struct {
	mu     sync.Mutex
	ctx    context.Context // the browser's first tab; its end closes the browser
	cancel func()
	dir    string // the browser's profile, removed by closeSharedBrowser
}

// disabledFeatures are the Chromium features the tests turn off: chromedp's defaults
// (Translate, BlinkGenPropertyTrees) and the omnibox's WebUI popups. Headless Chromium 156
// preloads two of those popups (chrome://omnibox-popup.top-chrome/) in a renderer of their own
// for every browser context, that is for every test: 0.8 s of CPU each time, a third of what
// opening a Loupe page costs, for an address bar nobody sees (a page load went from 3.6 to
// 2.2 CPU-seconds across Chromium's processes, medians of 8).
const disabledFeatures = "Translate,BlinkGenPropertyTrees,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"

// sharedBrowser returns the context of the shared Chromium, started on first use and again if
// it has stopped (a crash ends only the tests that were using it).
func sharedBrowser(t testing.TB) context.Context {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.ctx != nil && shared.ctx.Err() == nil {
		return shared.ctx
	}
	closeSharedLocked()
	top, err := processTemp()
	dir := ""
	if err == nil {
		dir, err = os.MkdirTemp(top, "chromium-")
	}
	if err != nil {
		t.Fatalf("a profile folder for Chromium: %v", err)
	}
	ctx, cancel, err := startChromium(t, dir)
	if err != nil {
		os.RemoveAll(dir)
		t.Fatalf("starting Chromium: %v", err)
	}
	shared.ctx, shared.dir, shared.cancel = ctx, dir, cancel
	return ctx
}

// startChromium starts a headless Chromium with its profile in dir and returns the context of
// its first tab, in the profile's own browser context, and what closes it.
func startChromium(t testing.TB, dir string) (context.Context, func(), error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromePath(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-features", disabledFeatures),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	if err := chromedp.Do(ctx); err != nil { // start the browser, not under a timeout
		cancelCtx()
		cancelAlloc()
		return nil, nil, err
	}
	return ctx, func() { cancelCtx(); cancelAlloc() }, nil
}

// closeSharedBrowser closes the shared Chromium, if one started, and removes its profile.
func closeSharedBrowser() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	closeSharedLocked()
}

func closeSharedLocked() {
	if shared.cancel != nil {
		shared.cancel()
		os.RemoveAll(shared.dir)
	}
	shared.ctx, shared.cancel, shared.dir = nil, nil, ""
}

// newBrowser returns a tab's context in a new browser context of the shared Chromium: a
// browser of the test's own, as far as a page can tell. The browser context, its tabs and
// everything it stored are gone when the test ends.
func newBrowser(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(sharedBrowser(t), chromedp.WithNewBrowserContext())
	t.Cleanup(func() {
		_ = chromedp.Cancel(ctx) // closes the tab and disposes of the browser context
		cancel()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a browser context in Chromium: %v", err)
	}
	return ctx
}

// browserContextID is the browser context of ctx's tab, for the commands that take one (the
// download folder).
func browserContextID(ctx context.Context) cdp.BrowserContextID {
	if c := chromedp.FromContext(ctx); c != nil {
		return c.BrowserContextID
	}
	return ""
}
