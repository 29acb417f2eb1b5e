package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/bcrypt"
)

// wcagTags are the axe-core rule tags of WCAG 2.2 levels A and AA.
var wcagTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"}

// axeSource reads axe-core as npm installed it (make deps runs npm ci in e2e/).
func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is not installed: run `make deps` (npm ci in e2e/): %v", err)
	}
	return string(b)
}

// a11yPage is one page type the accessibility check visits: its path and what to do there
// first (send the request, so the viewer shows an answer).
type a11yPage struct {
	name, path string
	prepare    func(t *testing.T, ctx context.Context)
}

// sendAndWait sends the operation's request and waits for the viewer to show the answer.
func sendThenWaitFor(sel string) func(t *testing.T, ctx context.Context) {
	return func(t *testing.T, ctx context.Context) {
		t.Helper()
		if err := chromedp.Do(within(t, ctx, 30*time.Second), chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.CSS(sel))); err != nil {
			t.Fatalf("sending and waiting for %s: %v", sel, err)
		}
	}
}

// runStepThenWaitFor runs a walkthrough's current step and waits for sel to show.
func runStepThenWaitFor(sel string) func(t *testing.T, ctx context.Context) {
	return func(t *testing.T, ctx context.Context) {
		t.Helper()
		if _, err := chromedp.Run(within(t, ctx, 30*time.Second), clickWhenEnabled("walk-run-step")); err != nil {
			t.Fatalf("running the step: %v", err)
		}
		if err := chromedp.Do(within(t, ctx, 60*time.Second), chromedp.WaitVisible(chromedp.CSS(sel))); err != nil {
			t.Fatalf("running the step and waiting for %s: %v", sel, err)
		}
	}
}

// axeViolations runs axe-core on the page with the WCAG 2.2 A and AA rules and returns one line
// per violation: the rule, its impact, how many nodes and the first few of them.
func axeViolations(t *testing.T, ctx context.Context, axe string) []string {
	t.Helper()
	return axeViolationsIn(t, ctx, axe, "document")
}

// settledPage resolves once the page's layout has stayed the same for five animation frames in
// a row and no finite animation runs (a spinner's endless one does not count): a check of what
// the user sees waits for the page to stop moving (a render still under way can overlap a
// control for a frame, which axe-core reports as a target too small).
const settledPage = `new Promise(resolve => {
	let last = "", same = 0;
	const frame = () => {
		const el = document.documentElement;
		const now = [el.scrollWidth, el.scrollHeight, document.getElementsByTagName("*").length,
			...[...document.querySelectorAll("main button, main input, main a")].slice(0, 200).map(e => { const b = e.getBoundingClientRect(); return b.x + "," + b.y; })].join(" ");
		same = now === last && !document.getAnimations().some(a => a.playState === "running" && a.effect && a.effect.getTiming().iterations !== Infinity) ? same + 1 : 0;
		last = now;
		if (same >= 5) resolve(true); else requestAnimationFrame(frame);
	};
	requestAnimationFrame(frame);
})`

// axeViolationsIn is axeViolations on part of the page: root is a script expression for it.
// It runs once the page has settled (settledPage).
func axeViolationsIn(t *testing.T, ctx context.Context, axe, root string) []string {
	t.Helper()
	tctx := within(t, ctx, 60*time.Second)
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](settledPage, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("waiting for the page to settle: %v", err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`typeof axe !== "undefined" || (() => { `+axe+`; return true })()`)); err != nil {
		t.Fatalf("injecting axe-core: %v", err)
	}
	tags := `["` + strings.Join(wcagTags, `","`) + `"]`
	out, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](`axe.run(`+root+`, {runOnly: {type: "tag", values: `+tags+`}, resultTypes: ["violations"]}).then(r =>
		r.violations.map(v => v.id + " (" + v.impact + ", " + v.nodes.length + " nodes): " + v.help + " — " +
			(v.nodes[0].failureSummary || "").replace(/\s+/g, " ").slice(0, 200) + " — " + v.nodes.slice(0, 12).map(n => n.target.join(" ")).join("; ")))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("running axe-core: %v", err)
	}
	return out
}

// emulate sets the viewport and the preferred color scheme of the tab, and lets the
// injected axe-core run under the app's CSP.
func emulate(t *testing.T, ctx context.Context, w, h int64, scheme string) {
	t.Helper()
	tctx := within(t, ctx, 20*time.Second)
	if _, err := chromedp.Call(tctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: w, Height: h, DeviceScaleFactor: 1, Mobile: w < 600}); err != nil {
		t.Fatalf("viewport %dx%d: %v", w, h, err)
	}
	if _, err := chromedp.Call(tctx, page.SetBypassCSP, page.SetBypassCSPParams{Enabled: true}); err != nil {
		t.Fatalf("bypassing the CSP for axe-core: %v", err)
	}
	features := []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}
	if _, err := chromedp.Call(tctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: features}); err != nil {
		t.Fatalf("prefers-color-scheme %s: %v", scheme, err)
	}
}

// TestEveryPageTypePassesAxe runs axe-core's WCAG 2.2 A and AA rules on every page type, in
// light and dark mode, at a laptop's and a phone's size, and names each violation.
func TestEveryPageTypePassesAxe(t *testing.T) {
	t.Parallel()
	axe := axeSource(t)
	base := startServer(t)
	pages := []a11yPage{
		{"home", "/", nil},
		{"guide", "/entities", nil},
		{"entities JSON-LD answer", "/entities/entities.search#v1&query=paris", sendThenWaitFor("#response .panel-body")},
		{"docs paged answer", "/docs/listProjects", sendThenWaitFor("#paged-table")},
		{"docs HTML answer", "/docs/getEmbed#v1&project=pip&doc=index", sendThenWaitFor("#response .panel-body")},
		{"error answer", "/pagination/listItemsPageNumber#v1&page=999", sendThenWaitFor(".api-status")},
		{"cluster JSON answer", "/cluster/cluster.health", sendThenWaitFor("#response .panel-body")},
		{"pagination", "/pagination/listItemsCursor", sendThenWaitFor("#paged-table")},
		{"history with the requests above", "/history", nil},
		{"history with two requests saved as a walkthrough", "/history", func(t *testing.T, ctx context.Context) {
			if _, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Poll[bool](`(() => {
				const boxes = document.querySelectorAll("#history-list .history-pick");
				if (boxes.length < 2) return null;
				boxes[0].click(); boxes[1].click(); return true; })()`)); err != nil {
				t.Fatalf("picking two requests: %v", err)
			}
			if _, err := chromedp.Run(within(t, ctx, 30*time.Second), clickWhenEnabled("history-record-save")); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(within(t, ctx, 30*time.Second), chromedp.WaitVisible(chromedp.ID("history-record-doc"))); err != nil {
				t.Fatalf("saving as a walkthrough: %v", err)
			}
		}},
		{"walkthrough file with its problems", "/walkthroughs", func(t *testing.T, ctx context.Context) {
			if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[bool](`(() => {
				document.querySelector(".walk-file-paste").open = true;
				const el = document.getElementById("walk-file-text");
				el.value = "arazzo: 1.0.1\ninfo: {title: Broken, version: 1.0.0}\nsourceDescriptions:\n  - {name: nowhere, url: ./nowhere.yaml, type: openapi}\nworkflows: []\n";
				el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(within(t, ctx, 30*time.Second), chromedp.Click(chromedp.ID("walk-file-open")), chromedp.WaitVisible(chromedp.ID("walk-problems"))); err != nil {
				t.Fatalf("opening a broken document: %v", err)
			}
		}},
		{"reports", "/reports/activities.list", nil},
		{"script with a body", "/script/projects.create", nil},
		{"chat", "/chat/createChatCompletion", nil},
		{"chat answer with its raw view", "/chat/createChatCompletion", chatAnswerWithRawOpen},
		{"not found", "/no-such-page", nil},
		{"sandbox Reset asking to confirm", "/pagination", func(t *testing.T, ctx context.Context) {
			if err := chromedp.Do(within(t, ctx, 30*time.Second), chromedp.Click(chromedp.ID("sandbox-reset")), chromedp.WaitVisible(chromedp.ID("sandbox-reset-what"))); err != nil {
				t.Fatalf("asking to reset: %v", err)
			}
		}},
		{"walkthrough step form with carried values", "/walkthroughs/entities-search-then-lookup", runStepThenWaitFor("#walk-step-lookup.walk-step-current #walk-form")},
		{"walkthrough streamed chat answer", "/walkthroughs/chat-tool-round-trip", runStepThenWaitFor("#walk-step-askForApp.walk-step-passed .chat-msg.assistant")},
	}
	// The login page of a server whose users sign in.
	dir := t.TempDir()
	hash, _ := bcrypt.GenerateFromPassword([]byte("e2e password"), bcrypt.MinCost)
	users := filepath.Join(dir, "users")
	if err := os.WriteFile(users, []byte("alice:"+string(hash)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	loginBase, _, _ := startTappedServer(t, "server:\n  access:\n    mode: users\n    users_file: "+users+"\n", nil)

	// Each size and scheme in a browser of its own, beside the others; within one, the pages in
	// order (the history pages show the requests sent on the pages before them).
	for _, size := range []struct{ w, h int64 }{{1280, 800}, {390, 844}} {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(fmt.Sprintf("%dx%d %s", size.w, size.h, scheme), func(t *testing.T) {
				t.Parallel()
				ctx := newBrowser(t)
				t.Run("login", func(t *testing.T) {
					emulate(t, ctx, size.w, size.h, scheme)
					if err := chromedp.Do(within(t, ctx, 30*time.Second), chromedp.Navigate(loginBase+"/login"), chromedp.WaitVisible(chromedp.ID("login"))); err != nil {
						t.Fatalf("the login page: %v", err)
					}
					if v := axeViolations(t, ctx, axe); len(v) > 0 {
						t.Errorf("%d axe-core violations of WCAG 2.2 A/AA:\n%s", len(v), strings.Join(v, "\n"))
					}
				})
				for _, pg := range pages {
					t.Run(pg.name, func(t *testing.T) {
						emulate(t, ctx, size.w, size.h, scheme)
						openPage(t, ctx, base+pg.path)
						if pg.prepare != nil {
							pg.prepare(t, ctx)
						}
						if v := axeViolations(t, ctx, axe); len(v) > 0 {
							t.Errorf("%d axe-core violations of WCAG 2.2 A/AA:\n%s", len(v), strings.Join(v, "\n"))
						}
					})
				}
			})
		}
	}
}
