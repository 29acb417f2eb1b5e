package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestOAuthSignInNarrowThenWiden signs in to the script sandbox in Chromium (the request
// preview and the API page's Credentials line showing the key while signed out, the grant
// after) with a narrowed scope set through the sandbox's consent page. An operation that needs a missing scope says
// so before Send, answers 403 and names the scope to add; signing in again from that page's
// link asks for it, and the call works. (TestSecretsNeverReachTheBrowser signs in too and
// looks for the tokens everywhere the browser and the logs could hold them.)
func TestOAuthSignInNarrowThenWiden(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)

	// Signed out, the request preview shows the key the proxy sends instead of a grant.
	openPage(t, ctx, base+"/script/projects.create")
	preview := poller(t, within(t, ctx, 30*time.Second))
	preview("the key in the preview", `(e => e && e.innerText.includes("key") && e.innerText.includes("‹held by the server›") && !e.innerText.includes("Authorization") ? "ok" : null)(document.getElementById("preview"))`)

	// The API page's Credentials line says the same.
	openPage(t, ctx, base+"/script")
	poller(t, within(t, ctx, 30*time.Second))("the key on the API page",
		`(e => e && e.innerText.includes("key=‹held by the server›") && !e.innerText.includes("Authorization") ? "ok" : null)(document.getElementById("held"))`)
	consent := signInToSandbox(t, ctx, `/script\.projects\.readonly$|userinfo\.email$/`)
	if !strings.Contains(consent, "View script projects") || strings.Contains(consent, "Create and update script projects") {
		t.Errorf("the consent page asks for: %s; want only the narrowed scopes", consent)
	}
	tctx := within(t, ctx, 60*time.Second)
	poll := poller(t, tctx)
	poll("signed in", `(e => e && e.textContent.startsWith("Signed in to Script Projects API as ") ? "ok" : null)(document.getElementById("oauth-who"))`)
	poll("the grant on the API page", `(e => e && e.innerText.includes("Authorization: Bearer ‹held by the server›") && !e.innerText.includes("key=") ? "ok" : null)(document.getElementById("held"))`)
	if got := evalString(t, tctx, `[...document.querySelectorAll("#oauth-granted code")].map(c => c.textContent).join(" ")`); got != "script.projects.readonly userinfo.email" {
		t.Errorf("granted scopes shown: %q; want script.projects.readonly userinfo.email", got)
	}

	// An operation that needs script.projects says so before Send; the sandbox answers 403 and
	// the answer names the scope to add.
	openPage(t, ctx, base+"/script/projects.create")
	tctx = within(t, ctx, 60*time.Second)
	poll = poller(t, tctx)
	needs := poll("the operation's scopes", `(e => e && !e.hidden && e.textContent ? e.textContent : null)(document.getElementById("oauth-needs"))`)
	if !strings.Contains(needs, "Needs script.projects — not granted: sign in again with script.projects.") {
		t.Errorf("the operation says: %q; want it to name the missing scope", needs)
	}
	send := func(want string) string {
		t.Helper()
		if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send"))); err != nil {
			t.Fatal(err)
		}
		return poll("status "+want, `(s => s && s.textContent.startsWith("`+want+`") ? document.getElementById("response").innerText : null)(document.getElementById("response-status"))`)
	}
	answer := send("403")
	if !strings.Contains(answer, "Request had insufficient authentication scopes.") || !strings.Contains(answer, "lacks the scope this call needs: add script.projects.") {
		t.Errorf("the 403 says: %.600s; want the sandbox's message and the scope to add", answer)
	}

	// Sign in again from the operation's link: it asks for the scopes held and the missing one,
	// and comes back to the operation.
	consent = signInToSandbox(t, ctx, "")
	if !strings.Contains(consent, "View script projects") || !strings.Contains(consent, "Create and update script projects") {
		t.Errorf("signing in again asks for: %s; want the scopes held and script.projects", consent)
	}
	tctx = within(t, ctx, 60*time.Second)
	poll = poller(t, tctx)
	poll("back on the operation, covered", `(e => e && e.dataset.covered === "true" && location.pathname === "/script/projects.create" ? "ok" : null)(document.getElementById("oauth-needs"))`)
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(e => e && /Authorization:\s*Bearer ‹held by the server›/.test(e.innerText) || null)(document.getElementById("preview"))`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Errorf("signed in, the preview says %q; want the grant's Authorization: Bearer", evalString(t, tctx, `document.getElementById("preview").innerText`))
	}
	if answer := send("200"); !strings.Contains(answer, "scriptId") {
		t.Errorf("the call after signing in again: %.400s; want the created project", answer)
	}
}

// signInToSandbox signs in to the script sandbox from the page open in ctx and returns the
// consent page's text. With narrow (a JavaScript regular expression literal) it unfolds the
// API page's scope picker, ticks the boxes whose scope matches (and only those) and presses the
// panel's sign-in button; without, it follows the operation note's sign-in link. It then presses Allow and waits until
// the app is running again on the page the sign-in came back to.
func signInToSandbox(t *testing.T, ctx context.Context, narrow string) string {
	t.Helper()
	tctx := within(t, ctx, 60*time.Second)
	start := chromedp.Click(chromedp.ID("oauth-needs-signin"))
	if narrow != "" {
		// The picker starts folded, nothing ticked: unfold it, tick the scopes narrow matches.
		if err := chromedp.Do(tctx, chromedp.WaitReady(chromedp.CSS("#oauth-panel .oauth-picker")),
			chromedp.Evaluate[chromedp.Void](`document.querySelector("#oauth-panel .oauth-picker").open = true`),
			chromedp.WaitVisible(chromedp.ID("oauth-signin")),
			chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('#oauth-start input[name="scope"]').forEach(b => { b.checked = `+narrow+`.test(b.value) })`),
		); err != nil {
			t.Fatalf("narrowing the scopes: %v", err)
		}
		start = chromedp.Click(chromedp.ID("oauth-signin"))
	} else if err := chromedp.Do(tctx, chromedp.WaitReady(chromedp.ID("oauth-needs-signin")),
		// Signed out, the operation's scopes are folded under the note: unfold them.
		chromedp.Evaluate[chromedp.Void](`(d => { if (d) d.open = true })(document.getElementById("oauth-needs-picker"))`),
		chromedp.WaitVisible(chromedp.ID("oauth-needs-signin"))); err != nil {
		t.Fatalf("no sign-in link: %v", err)
	}
	if res, err := chromedp.RunResponse(tctx, start); err != nil || res == nil || res.Status != 200 {
		t.Fatalf("opening the consent page: %v %v", res, err)
	}
	consent, err := chromedp.Run(tctx, chromedp.Text(chromedp.CSS("main")))
	if err != nil {
		t.Fatalf("reading the consent page: %v", err)
	}
	if res, err := chromedp.RunResponse(tctx, chromedp.Click(chromedp.CSS("button.allow"))); err != nil || res == nil || res.Status != 200 {
		t.Fatalf("allowing: %v %v", res, err)
	}
	if err := chromedp.Do(tctx, chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")), chromedp.WaitVisible(chromedp.ID("side"))); err != nil {
		t.Fatalf("coming back to the app: %v", err)
	}
	return consent
}
