package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// realAPIOnTheSite is a real API on the static site's own origin (under /realapi/, beside the
// site's files, as when an API serves its own explorer): it answers every call with a body it
// says may be cached for an hour, and records each call.
type realAPIOnTheSite struct {
	mu    sync.Mutex
	calls []string // "METHOD URI Authorization"
}

func (a *realAPIOnTheSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.calls = append(a.calls, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("Authorization"))
	a.mu.Unlock()
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"@context":{"@vocab":"http://schema.org/"},"@type":"ItemList","itemListElement":[],"cluster_name":"real","status":"green"}`))
}

// seen returns the calls so far.
func (a *realAPIOnTheSite) seen() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.calls...)
}

// serveSiteWithAPI serves the static site in dir at the root and the real API under /realapi/.
func serveSiteWithAPI(t *testing.T, dir string) (string, *realAPIOnTheSite) {
	t.Helper()
	api := &realAPIOnTheSite{}
	mux := http.NewServeMux()
	mux.Handle("/realapi/", api)
	mux.Handle("/", http.FileServer(http.Dir(dir)))
	return serveHandler(t, mux), api
}

// serveHandler serves h on a loopback port and returns its address, ending in a slash.
func serveHandler(t *testing.T, h http.Handler) string {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL + "/"
}

// useRealAPI points the page's API at base with key, through the mode banner.
func useRealAPI(t *testing.T, ctx context.Context, base, key string) {
	t.Helper()
	if err := chromedp.Do(within(t, ctx, 20*time.Second), chromedp.Click(chromedp.CSS(".mode-real summary")), chromedp.WaitVisible(chromedp.ID("real-key"))); err != nil {
		t.Fatalf("opening the real API form: %v", err)
	}
	for id, v := range map[string]string{"real-base": base, "real-key": key} {
		chatEval[bool](t, ctx, `(() => { const e = document.getElementById(`+jsString(id)+`); e.value = `+jsString(v)+`; e.dispatchEvent(new Event("change", {bubbles: true})); return true })()`)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.ID("use-real"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[bool](`document.getElementById("mode-banner").textContent.includes("real API") || null`)); err != nil {
		t.Fatalf("the banner does not say the real API is used: %v", err)
	}
}

// whereTheKeyIs lists every place of the page's storage that holds key: the service worker's
// caches (URLs and bodies), local and session storage, cookies, IndexedDB's names, the address.
const whereTheKeyIs = `(async (key) => {
  const found = [];
  for (const name of await caches.keys()) {
    const c = await caches.open(name);
    for (const req of await c.keys()) {
      if (req.url.includes(key)) found.push("cache " + name + ": " + req.url);
      const body = await (await c.match(req)).clone().text().catch(() => "");
      if (body.includes(key)) found.push("cache " + name + " body of " + req.url);
    }
  }
  for (const [n, s] of [["localStorage", localStorage], ["sessionStorage", sessionStorage]])
    for (let i = 0; i < s.length; i++) if (s.key(i).includes(key) || s.getItem(s.key(i)).includes(key)) found.push(n + " " + s.key(i));
  if (document.cookie.includes(key)) found.push("cookie");
  if (indexedDB.databases) for (const db of await indexedDB.databases()) if ((db.name || "").includes(key)) found.push("indexedDB " + db.name);
  if (location.href.includes(key) || history.state && JSON.stringify(history.state).includes(key)) found.push("address");
  return found;
})`

// TestARealAPIKeyIsForgottenBackInTheSandbox: on a static site whose real API shares its origin,
// a key typed for the real API goes with its calls and nowhere else: no call is answered from a
// cache (the API's answers say they may be cached for an hour) nor kept by the service worker;
// after "Back to the sandbox" the key is in no cache, storage or later request, and the calls
// go to the in-browser sandbox again.
func TestARealAPIKeyIsForgottenBackInTheSandbox(t *testing.T) {
	const key = "K3y-typed-29-xyz"
	site, api := serveSiteWithAPI(t, writeStatic(t, "/"))
	ctx := newBrowser(t)
	openPage(t, ctx, site+"entities/entities.search")
	if _, err := chromedp.Run(within(t, ctx, 60*time.Second), chromedp.Poll[bool](`navigator.serviceWorker.controller !== null || null`)); err != nil {
		t.Fatalf("the service worker never took the page: %v (%s)", err, workerDiagnosis(ctx))
	}
	useRealAPI(t, ctx, site+"realapi", key)
	setInput(t, within(t, ctx, 10*time.Second), "query:query", "Paris")
	for i := range 2 {
		if status := sendAndWait(t, ctx); !strings.HasPrefix(status, "200") {
			t.Fatalf("call %d to the real API: status %q; want 200", i+1, status)
		}
	}
	calls := api.seen()
	if len(calls) != 2 || !strings.Contains(calls[0], "key="+key) {
		t.Fatalf("the real API got %q; want both calls, with the key (none answered from a cache)", calls)
	}

	var mu sync.Mutex
	var later []string
	_ = chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			later = append(later, e.Request.URL+" "+headerText(e.Request.Headers))
			mu.Unlock()
		}
	})
	if _, err := chromedp.Call(within(t, ctx, 10*time.Second), network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.ID("use-sandbox"))); err != nil {
		t.Fatalf("Back to the sandbox: %v", err)
	}
	if status := sendAndWait(t, ctx); !strings.HasPrefix(status, "200") {
		t.Fatalf("back in the sandbox: status %q; want 200 from the in-browser sandbox", status)
	}
	openPage(t, ctx, site+"entities/entities.search") // a reload, and every request it makes
	if status := sendAndWait(t, ctx); !strings.HasPrefix(status, "200") {
		t.Fatalf("after a reload: status %q; want 200", status)
	}
	found, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Evaluate[[]string](whereTheKeyIs+`(`+jsString(key)+`)`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("the key is kept in %s", f)
	}
	mu.Lock()
	for _, r := range later {
		if strings.Contains(r, key) {
			t.Errorf("a request after Back to the sandbox carries the key: %.200s", r)
		}
	}
	mu.Unlock()
	if got := api.seen(); len(got) != 2 {
		t.Errorf("the real API got %d calls; want only the 2 made while it was used", len(got))
	}

	t.Run("the real API again with an empty key field sends no old key", func(t *testing.T) {
		useRealAPI(t, ctx, site+"realapi", "")
		sendAndWait(t, ctx)
		got := api.seen()
		if len(got) != 3 {
			t.Fatalf("the real API got %d calls; want the 2 from before and this one: %q", len(got), got)
		}
		if strings.Contains(got[2], key) {
			t.Errorf("the real API got the old key after it was left: %s", got[2])
		}
	})
}

// TestSandboxOnlyCallsNeverGoToARealAPI: on a cluster page pointed at a real cluster, the
// cluster picture (which polls the sandbox's own GET /_sandbox/state) and its controls send
// nothing to the real server: the picture says it needs the sandbox.
func TestSandboxOnlyCallsNeverGoToARealAPI(t *testing.T) {
	site, api := serveSiteWithAPI(t, writeStatic(t, "/"))
	ctx := newBrowser(t)
	openPage(t, ctx, site+"cluster/cluster.health")
	useRealAPI(t, ctx, site+"realapi", "ApiKey c2VjcmV0")
	time.Sleep(5 * time.Second) // the picture polls every 2 s
	if status := sendAndWait(t, ctx); !strings.HasPrefix(status, "200") {
		t.Fatalf("cluster.health on the real server: status %q; want 200", status)
	}
	for _, c := range api.seen() {
		if strings.Contains(c, "_sandbox") {
			t.Errorf("the real server got a sandbox-only call: %s", c)
		}
	}
	if n := len(api.seen()); n != 1 {
		t.Errorf("the real server got %d calls; want the one Send: %q", n, api.seen())
	}
}

// headerText is a request's headers as one line.
func headerText(h network.Headers) string {
	var b strings.Builder
	for k, v := range h {
		b.WriteString(k + ": ")
		if s, ok := v.(string); ok {
			b.WriteString(s)
		}
		b.WriteString("; ")
	}
	return b.String()
}
