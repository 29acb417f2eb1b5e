package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSandboxSessionsAreSeparate: two anonymous visitors (two browser contexts, two cookie
// jars) each get their own sandboxes. Alice performs the cluster's security upgrade and creates
// a script project; Bob still sees the upgrade available and cannot open her project; Reset on
// the cluster's and the script API's pages, after a confirmation, gives Alice the seed back.
func TestSandboxSessionsAreSeparate(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	alice := newBrowser(t)
	bob, cancel := chromedp.NewContext(alice, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(bob, chromedp.EmulateViewport(1280, 900)); err != nil { // a new context's window is smaller
		t.Fatal(err)
	}
	actx, bctx := within(t, alice, 90*time.Second), within(t, bob, 90*time.Second)
	apoll, bpoll := poller(t, actx), poller(t, bctx)
	textOf := func(id string) string {
		return `(e => e && e.textContent.trim() ? e.textContent.trim() : null)(document.getElementById("` + id + `"))`
	}
	click := func(ctx context.Context, ids ...string) {
		t.Helper()
		for _, id := range ids {
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID(id))); err != nil {
				t.Fatalf("clicking #%s: %v", id, err)
			}
		}
	}
	check := func(ctx context.Context, poll func(what, expr string) string) string {
		t.Helper()
		openPage(t, ctx, base+"/cluster/security.config_upgrade_check")
		click(ctx, "upgrade-check")
		return poll("the check", textOf("upgrade-check-result"))
	}

	// Alice upgrades and creates a project.
	if got := check(actx, apoll); got != "Needs upgrading: roles." {
		t.Fatalf("alice's first check: got %q; want roles to upgrade", got)
	}
	// Issue 33's guided upgrade: no backup here, skipped knowingly, and the perform confirmed.
	click(actx, "upgrade-skip-backup")
	apoll("perform enabled", `(b => b && !b.disabled ? "ok" : null)(document.getElementById("upgrade-perform"))`)
	click(actx, "upgrade-perform")
	apoll("the confirmation", `document.getElementById("upgrade-confirm") ? "ok" : null`)
	click(actx, "upgrade-confirm")
	if got := apoll("the perform", textOf("upgrade-perform-result")); !strings.Contains(got, "Upgraded: roles") {
		t.Fatalf("alice's perform: got %q; want roles upgraded", got)
	}
	openPage(t, actx, base+"/script/workspace")
	apoll("the example project", `(e => e && e.value.includes("function") ? "ok" : null)(document.getElementById("ws-editor"))`)
	if err := chromedp.Do(actx, chromedp.SendKeys(chromedp.ID("ws-title"), "Alice only"), chromedp.Click(chromedp.ID("ws-create"))); err != nil {
		t.Fatal(err)
	}
	id := apoll("alice's project", `(i => i && i.value && !i.value.startsWith("1qvD3r") ? i.value : null)(document.getElementById("ws-script-id"))`)

	// Bob sees the seed: the upgrade still available, no project of Alice's.
	if got := check(bctx, bpoll); got != "Needs upgrading: roles." {
		t.Errorf("bob's check after alice's upgrade: got %q; want roles still to upgrade", got)
	}
	// openProject opens Alice's project in the workspace and returns the answer's status.
	openProject := func(ctx context.Context, poll func(what, expr string) string) string {
		t.Helper()
		openPage(t, ctx, base+"/script/workspace")
		poll("the example project", `(e => e && e.value.includes("function") ? "ok" : null)(document.getElementById("ws-editor"))`)
		// Opening the example ends with listing its processes; Open is disabled until then.
		poll("the workspace idle", `(c => c && c.textContent.includes("listScriptProcesses") && !document.getElementById("ws-open").disabled ? "ok" : null)(
			document.getElementById("ws-calls"))`)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
			const el = document.getElementById("ws-script-id");
			el.value = "`+id+`";
			el.dispatchEvent(new Event("change", {bubbles: true}));
			return true;
		})()`)); err != nil {
			t.Fatal(err)
		}
		click(ctx, "ws-open")
		return poll("the opened project", `(c => c ? c.closest("summary").querySelector(".muted").textContent : null)(
			[...document.querySelectorAll("#ws-calls .ws-call-line")].find(l => l.textContent.includes("/projects/`+id+`/content")))`)
	}
	if got := openProject(bctx, bpoll); got != "projects.getContent → 404" {
		t.Errorf("bob opening alice's project %s: got %q; want 404 (he cannot see it)", id, got)
	}
	if got := openProject(actx, apoll); got != "projects.getContent → 200" {
		t.Fatalf("alice opening her project: got %q; want 200", got)
	}

	// Reset, per API, for Alice only.
	reset := func(slug string) {
		t.Helper()
		openPage(t, actx, base+"/"+slug)
		click(actx, "sandbox-reset")
		if got := apoll("the confirmation", textOf("sandbox-reset-what")); !strings.Contains(got, "Reset restores the seeded "+slug+" sandbox for you only") {
			t.Errorf("confirmation: got %q; want it to say it restores the seeded %s sandbox for you only", got, slug)
		}
		click(actx, "sandbox-reset-confirm")
		if got := apoll("the reset", textOf("sandbox-reset-result")); got != "Done: your "+slug+" sandbox is back to its seeded data." {
			t.Errorf("reset of %s: got %q; want it done", slug, got)
		}
	}
	reset("cluster")
	reset("script")
	if got := check(actx, apoll); got != "Needs upgrading: roles." {
		t.Errorf("alice's check after her reset: got %q; want roles to upgrade again", got)
	}
	if got := openProject(actx, apoll); got != "projects.getContent → 404" {
		t.Errorf("alice opening her project after her reset: got %q; want 404 (the seed has no such project)", got)
	}
}
