package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"loupe/app/catalog"
)

func TestTheStaticSiteWorksWithNoServer(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"/", "/docs/api/"} {
		t.Run("under "+base, func(t *testing.T) {
			t.Parallel()
			dir := sharedStatic(t, base)
			site := serveFiles(t, dir, base)
			var cat catalog.Catalog
			b, err := os.ReadFile(filepath.Join(dir, "catalog.json"))
			if err != nil || json.Unmarshal(b, &cat) != nil {
				t.Fatalf("the site has no readable catalog.json: %v", err)
			}
			ctx := newBrowser(t)

			t.Run("one operation of every API answers", func(t *testing.T) {
				for _, a := range cat.APIs {
					op := firstPlainOperation(a)
					if op == nil {
						continue // chat: its own test below
					}
					openPage(t, ctx, site+a.Slug+"/"+op.ID)
					if status := sendAndWait(t, ctx); !strings.HasPrefix(status, "2") {
						panel, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.TextContent(chromedp.ID("response")))
						t.Errorf("%s %s: status %q; want 2xx; panel: %.300s", a.Slug, op.ID, status, panel)
						continue
					}
					// The Send fetched this API's module and no other (the page loads app.wasm).
					fetched, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[[]string](
						`[...new Set(performance.getEntriesByType("resource").map(e => new URL(e.name).pathname.split("/").pop()).filter(n => n.endsWith(".wasm") && n !== "app.wasm"))]`))
					if want := []string{"sandbox-" + a.Slug + ".wasm"}; !slices.Equal(fetched, want) {
						t.Errorf("%s: the first Send fetched the modules %q; want %q only", a.Slug, fetched, want)
					}
					if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[bool](
						`!!(document.getElementById("tab-view") || document.getElementById("json-tree") || document.getElementById("paged-table"))`)); err != nil {
						t.Errorf("%s %s: no viewer shows the answer", a.Slug, op.ID)
					}
				}
			})

			t.Run("the banner says where Send goes", func(t *testing.T) {
				text, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Text(chromedp.ID("mode-banner")))
				if err != nil || !strings.Contains(text, "sandbox in your browser") {
					t.Errorf("banner: %q (%v); want it to say the sandbox runs in the browser", text, err)
				}
			})

			t.Run("chat streams and Stop keeps the partial answer", func(t *testing.T) {
				openPage(t, ctx, site+"chat/createChatCompletion")
				if err := chromedp.Do(within(t, ctx, 20*time.Second), chromedp.WaitVisible(chromedp.ID("chat-view"))); err != nil {
					t.Fatalf("no chat view: %v", err)
				}
				chatEval[bool](t, ctx, `(() => { window.__steps = new Set(); window.__sampler = setInterval(() => window.__steps.add(`+lastAnswerText+`.length), 15); return true })()`)
				chatAsk(t, ctx, "a table app with 3000 rows")
				// The answer grows token by token: at least 20 different lengths are seen on screen
				// before it reaches 300 characters, and then Stop keeps what arrived.
				if _, err := chromedp.Run(within(t, ctx, 90*time.Second), chromedp.Poll[bool](lastAnswerText+`.length > 300 && window.__steps.size >= 20`,
					chromedp.WithPollingTimeout(90*time.Second))); err != nil {
					steps := chatEval[int](t, ctx, `window.__steps.size`)
					t.Fatalf("the answer did not stream in at least 20 visible steps (saw %d): %v", steps, err)
				}
				// Clicked where it is now: the composer moves down while the answer grows above it, and a
				// mouse click at the place read a moment before can miss it.
				if _, err := chromedp.Run(within(t, ctx, 5*time.Second), clickWhenEnabled("chat-stop")); err != nil {
					t.Fatalf("clicking Stop: %v", err)
				}
				// Generous: on a loaded machine the in-browser module answers the click late.
				if _, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Poll[bool](`document.getElementById("chat-metrics").textContent.includes("stopped")`,
					chromedp.WithPollingTimeout(30*time.Second))); err != nil {
					t.Fatalf("the answer does not say it stopped: %v", err)
				}
				stopped := chatEval[int](t, ctx, lastAnswerText+`.length`)
				time.Sleep(1500 * time.Millisecond)
				if later := chatEval[int](t, ctx, lastAnswerText+`.length`); stopped < 300 || later != stopped {
					t.Errorf("got %d characters at Stop and %d later; want the partial answer kept, and no growth", stopped, later)
				}
			})

			t.Run("Fetch all pages gathers a cursor list", func(t *testing.T) {
				openPage(t, ctx, site+"pagination/listItemsCursor")
				sendAndWait(t, ctx)
				if err := chromedp.Do(within(t, ctx, 20*time.Second), chromedp.WaitVisible(chromedp.ID("paged-table")), chromedp.Click(chromedp.ID("page-all"))); err != nil {
					t.Fatalf("Fetch all: %v", err)
				}
				got, err := chromedp.Run(within(t, ctx, 60*time.Second), chromedp.Poll[string](
					`(() => { const m = document.getElementById("main").textContent.match(/(\d+) items from (\d+) pages/); return m && +m[2] > 1 ? m[0] : null })()`))
				if err != nil {
					t.Fatalf("Fetch all did not gather the pages: %v", err)
				}
				t.Logf("Fetch all: %s", got)
			})

			t.Run("the embed viewer runs no script", func(t *testing.T) {
				openPage(t, ctx, site+"docs/getEmbed#v1&project=kitchen-sink&doc=untrusted")
				title, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[string](`document.title`))
				sendAndWait(t, ctx)
				if err := chromedp.Do(within(t, ctx, 20*time.Second), chromedp.WaitVisible(chromedp.ID("embed-frame"))); err != nil {
					t.Fatalf("no embed frame: %v", err)
				}
				sandbox, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[string](`document.getElementById("embed-frame").getAttribute("sandbox")`))
				doc, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[string](`document.getElementById("embed-frame").getAttribute("srcdoc")`))
				if strings.Contains(sandbox, "allow-scripts") || strings.Contains(strings.ToLower(doc), "<script") {
					t.Errorf("the embed frame may run scripts: sandbox=%q, script in srcdoc=%v", sandbox, strings.Contains(strings.ToLower(doc), "<script"))
				}
				time.Sleep(300 * time.Millisecond)
				if now, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[string](`document.title`)); now != title {
					t.Errorf("the title changed from %q to %q: a script of the embedded page ran", title, now)
				}
			})

			t.Run("an embedded page's image loads from the static site", func(t *testing.T) {
				openPage(t, ctx, site+"docs/getEmbed#v1&project=pip&doc=user_guide")
				sendAndWait(t, ctx)
				got, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Poll[string](`(async () => {
					const f = document.getElementById("embed-frame");
					const m = f && f.getAttribute("srcdoc").match(/src="([^"]*install-flow.svg)"/);
					if (!m) return null;
					const r = await fetch(m[1].replace(/&amp;/g, "&"));
					return new URL(m[1], location.href).pathname + " " + (r.ok ? r.headers.get("content-type") : "status " + r.status);
				})()`, chromedp.WithPollingTimeout(20*time.Second)))
				if want := base + "sandbox/docs/_images/pip/install-flow.svg image/svg+xml"; err != nil || got != want {
					t.Errorf("the page's image: got %q (%v); want %q", got, err, want)
				}
			})

			t.Run("after the first visit it works offline", func(t *testing.T) {
				// The worker installs on the first visit and caches the shell and the catalog, and
				// keeps each module the page fetched; wait until it controls the page and its cache
				// holds the entities API's module (sent above).
				if _, err := chromedp.Run(within(t, ctx, 60*time.Second), chromedp.Poll[bool](
					`navigator.serviceWorker.controller !== null && caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k).then(c => c.keys())))).then(all => all.flat().some(r => r.url.includes("sandbox-entities.wasm")) || null)`,
					chromedp.WithPollingTimeout(60*time.Second))); err != nil {
					t.Fatalf("the service worker did not cache the sandbox module: %v (%s)", err, workerDiagnosis(ctx))
				}
				yes := true
				offline := network.EmulateNetworkConditionsByRuleParams{EmulateOfflineServiceWorker: &yes,
					MatchedNetworkConditions: []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}}}
				if _, err := chromedp.Call(within(t, ctx, 10*time.Second), network.Enable, network.EnableParams{}); err != nil {
					t.Fatalf("network.enable: %v", err)
				}
				if _, err := chromedp.Call(within(t, ctx, 10*time.Second), network.EmulateNetworkConditionsByRule, offline); err != nil {
					t.Fatalf("going offline: %v", err)
				}
				defer chromedp.Call(within(t, ctx, 10*time.Second), network.EmulateNetworkConditionsByRule,
					network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{}})
				if _, err := http.Get(site + "catalog.json"); err != nil {
					t.Fatalf("the file server stopped: %v", err) // only the browser is offline
				}
				openPage(t, ctx, site+"entities/entities.search")
				if status := sendAndWait(t, ctx); !strings.HasPrefix(status, "2") {
					t.Errorf("offline: status %q; want 2xx from the cached sandbox module", status)
				}
			})
		})
	}
}

func TestAStaticPageOpenedFromAFileSaysHowToServeIt(t *testing.T) {
	t.Parallel()
	dir := sharedStatic(t, "/")
	ctx := newBrowser(t)
	if err := chromedp.Do(within(t, ctx, 30*time.Second), chromedp.Navigate("file://"+filepath.Join(dir, "index.html"))); err != nil {
		t.Fatalf("opening the page from file://: %v", err)
	}
	text, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Text(chromedp.ID("file-warning")))
	if err != nil {
		t.Fatalf("no #file-warning on a page opened from file://: %v", err)
	}
	if !strings.Contains(text, "python3 -m http.server") {
		t.Errorf("the warning is %q; want it to say how to serve the folder", text)
	}
}

func TestTheStaticSiteCallsARealAPIWithAKeyHeldInTheTab(t *testing.T) {
	t.Parallel()
	dir := sharedStatic(t, "/")
	site := serveFiles(t, dir, "/")
	var mu sync.Mutex
	var gotKey string
	allowCORS := true
	real := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		gotKey = r.URL.Query().Get("key")
		if allowCORS {
			w.Header().Set("Access-Control-Allow-Origin", "*")
		}
		w.Header().Set("Content-Type", "application/ld+json")
		w.Write([]byte(`{"@context":{"@vocab":"http://schema.org/"},"@type":"ItemList","itemListElement":[]}`))
	}))
	defer real.Close()

	ctx := newBrowser(t)
	openPage(t, ctx, site+"entities/entities.search")
	tctx := within(t, ctx, 60*time.Second)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS(".mode-real summary")), chromedp.WaitVisible(chromedp.ID("real-key"))); err != nil {
		t.Fatalf("opening the real API form: %v", err)
	}
	set := func(id, v string) {
		chatEval[bool](t, tctx, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event("change", {bubbles: true})); return true })()`, id, v))
	}
	set("real-base", real.URL)
	set("real-key", "secret-123")
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("use-real"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.getElementById("mode-banner").textContent.includes("real API, your key stays in this tab")`)); err != nil {
		t.Fatalf("the banner does not say the real API is used: %v", err)
	}
	setInput(t, tctx, "query:query", "Paris")
	if status := sendAndWait(t, tctx); !strings.HasPrefix(status, "200") {
		t.Fatalf("the real API call: status %q; want 200", status)
	}
	mu.Lock()
	if gotKey != "secret-123" {
		t.Errorf("the API got key=%q; want the typed key, in the query as its scheme says", gotKey)
	}
	allowCORS = false
	mu.Unlock()
	where := chatEval[string](t, tctx, `location.href + " " + JSON.stringify(localStorage) + " " + JSON.stringify(sessionStorage) + " " + document.cookie`)
	if strings.Contains(where, "secret-123") {
		t.Errorf("the key leaked into the address, storage or cookies: %s", where)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	msg, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => { const t = document.getElementById("response").textContent; return t.includes("CORS") ? t : null })()`))
	if err != nil {
		t.Fatalf("a call the browser blocks does not say CORS: %v", err)
	}
	if !strings.Contains(msg, "Loupe") || strings.Contains(msg, "secret-123") {
		t.Errorf("the CORS message should say what to do and never show the key: %.300s", msg)
	}
}

func TestTheStaticSitePreviewsAChatAppIsolated(t *testing.T) {
	t.Parallel()
	site := serveFiles(t, sharedStatic(t, "/sub/"), "/sub/")
	ctx := newBrowser(t)
	openPage(t, ctx, site+"chat/createChatCompletion")
	chatAsk(t, ctx, "a counter app")
	chatWaitDone(t, ctx, 150*time.Second)
	parent := openPreviewAndProbe(t, ctx)
	if !strings.HasPrefix(parent, "blocked") || !strings.Contains(parent, "Title:") {
		t.Errorf("got %q; want the app running with parent.document blocked", parent)
	}
}

func TestResetPutsTheInBrowserSandboxBackToItsSeed(t *testing.T) {
	t.Parallel()
	site := serveFiles(t, sharedStatic(t, "/"), "/")
	ctx := newBrowser(t)
	openPage(t, ctx, site+"script/projects.create")
	if status := sendAndWait(t, ctx); !strings.HasPrefix(status, "200") {
		t.Fatalf("creating a project: status %q; want 200", status)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.CSS(`[data-tab="raw"]`)), chromedp.WaitVisible(chromedp.ID("response-raw"))); err != nil {
		t.Fatal(err)
	}
	raw, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.TextContent(chromedp.ID("response-raw")))
	var created struct{ ScriptID string }
	if err := json.Unmarshal([]byte(raw), &created); err != nil || created.ScriptID == "" {
		t.Fatalf("no scriptId in the answer (%v): %.200s", err, raw)
	}
	// The project lasts while the tab stays on the site: another page, reached in the app, sees it.
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.CSS(`a[data-op="script/projects.get"]`)),
		chromedp.WaitVisible(chromedp.CSS(field("path:scriptId")))); err != nil {
		t.Fatalf("going to projects.get: %v", err)
	}
	setInput(t, within(t, ctx, 10*time.Second), "path:scriptId", created.ScriptID)
	if status := sendAndWait(t, ctx); !strings.HasPrefix(status, "200") {
		t.Fatalf("the created project: status %q; want 200", status)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.ID("reset-api"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[bool](`document.getElementById("mode-banner").textContent.includes("back to its seeded data")`)); err != nil {
		t.Fatalf("Reset says nothing: %v", err)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Poll[bool](`(document.getElementById("response-status")||{}).textContent?.startsWith("404") || null`)); err != nil {
		status, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Text(chromedp.ID("response-status")))
		t.Errorf("after Reset, the created project: status %q; want 404 (the seed has no such project)", status)
	}
}

// TestTheStaticSiteRunsLoupesOwnTools uses, on a static site under a sub-path with no Loupe
// server, what a Loupe server answers besides /proxy: a walkthrough runs to its end with Run
// all (its steps judged by the sandbox module), the script workspace marks a syntax error
// before saving, and the request preview's curl goes to the real API, never to /proxy.
func TestTheStaticSiteRunsLoupesOwnTools(t *testing.T) {
	t.Parallel()
	site := serveFiles(t, sharedStatic(t, "/docs/"), "/docs/")
	ctx := newBrowser(t)

	t.Run("a walkthrough runs to its end", func(t *testing.T) {
		openPage(t, ctx, site+"walkthroughs/entities-search-then-lookup")
		if _, err := chromedp.Run(within(t, ctx, 30*time.Second), clickWhenEnabled("walk-run-all")); err != nil {
			t.Fatal(err)
		}
		waitStep(t, ctx, "search", "passed")
		done := waitStep(t, ctx, "lookup", "passed")
		if !strings.Contains(done, "ids = kg:/m/") {
			t.Errorf("the lookup shows\n%s\nwant the id carried from the search", done)
		}
		status, _ := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Text(chromedp.ID("walk-status")))
		if status != "Done: every step passed." {
			t.Errorf("got status %q; want the walkthrough done", status)
		}
		outcomes := chatEval[string](t, ctx, `[...document.querySelectorAll(".criterion")].map(c => c.textContent.trim()).join("\n")`)
		lines := strings.Split(outcomes, "\n")
		if len(lines) != 4 {
			t.Errorf("got %d criteria:\n%s\nwant the 4 of the two steps", len(lines), outcomes)
		}
		for _, l := range lines { // "✓ <condition> passed: <why it held>"
			if !strings.HasPrefix(l, "✓") || !strings.Contains(l, " passed") || !strings.Contains(l, " = ") && !strings.Contains(l, "selected") {
				t.Errorf("criterion %q; want it passed, with why it held", l)
			}
		}
	})

	t.Run("the script workspace marks a syntax error before saving", func(t *testing.T) {
		openPage(t, ctx, site+"script/workspace")
		tctx := within(t, ctx, 60*time.Second)
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(e => !!e && e.value.includes("function sendInvoices") || null)(document.getElementById("ws-editor"))`)); err != nil {
			t.Fatalf("the example project's code never showed: %v", err)
		}
		chatEval[bool](t, tctx, `(() => {
			const el = document.getElementById("ws-editor");
			el.value = "function f() {\n  return [1, ;\n}\n";
			el.dispatchEvent(new Event("input", {bubbles: true}));
			return true;
		})()`)
		lint, err := chromedp.Run(tctx, chromedp.Poll[string](`(e => e && e.textContent.includes("Syntax error") ? e.textContent : null)(document.getElementById("ws-lint"))`))
		if err != nil {
			t.Fatalf("the syntax error was never marked: %v", err)
		}
		if !strings.Contains(lint, "Syntax error on line 2: Unexpected token ;") {
			t.Errorf("the syntax check: got %q; want the line and the problem in words", lint)
		}
		if sent := chatEval[string](t, tctx, `[...document.querySelectorAll("#ws-calls .ws-call-line")].map(c => c.textContent).join("\n")`); strings.Contains(sent, "PUT") {
			t.Errorf("the workspace sent\n%s\nwant nothing saved by the check", sent)
		}
	})

	t.Run("the curl goes to the real API, not to /proxy", func(t *testing.T) {
		openPage(t, ctx, site+"entities/entities.search")
		setInput(t, within(t, ctx, 10*time.Second), "query:query", "Paris")
		curl, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[string](`(c => c && c.textContent.includes("query=Paris") ? c.textContent : null)(document.getElementById("curl"))`))
		if err != nil {
			t.Fatalf("the curl never showed the query: %v", err)
		}
		for _, want := range []string{"answers this request inside your browser", `curl 'https://kgsearch.googleapis.com/v1/entities:search?query=Paris`, `key='"${ENTITIES_API_KEY}"`} {
			if !strings.Contains(curl, want) {
				t.Errorf("the curl is\n%s\nwant %q", curl, want)
			}
		}
		if strings.Contains(curl, "/proxy") || strings.Contains(curl, "127.0.0.1") {
			t.Errorf("the curl is\n%s\nwant no /proxy URL on a static site", curl)
		}
		// Pointed at a real server, the curl follows at once, still without the typed key.
		if err := chromedp.Do(within(t, ctx, 20*time.Second), chromedp.Click(chromedp.CSS(".mode-real summary")), chromedp.WaitVisible(chromedp.ID("real-key"))); err != nil {
			t.Fatalf("opening the real API form: %v", err)
		}
		chatEval[bool](t, ctx, `(() => { for (const [id, v] of [["real-base", "https://kg.example.org"], ["real-key", "typed-secret"]]) {
			const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event("change", {bubbles: true})); } return true })()`)
		if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.ID("use-real"))); err != nil {
			t.Fatal(err)
		}
		curl, err = chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[string](`(c => c && c.textContent.includes("kg.example.org") ? c.textContent : null)(document.getElementById("curl"))`))
		if err != nil {
			t.Fatalf("the curl did not follow the real server: %v", err)
		}
		if !strings.Contains(curl, "straight to the real API") || !strings.Contains(curl, `key='"${ENTITIES_API_KEY}"`) ||
			strings.Contains(curl, "typed-secret") || strings.Contains(curl, "/proxy") {
			t.Errorf("the curl for the real API is\n%s\nwant its server, the variable and no typed key", curl)
		}
	})
}
