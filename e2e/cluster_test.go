package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server/sandbox"
)

// clusterFault sends a sandbox-only call straight to the cluster sandbox, as the
// administrator, as the visitor whose sandbox cookie is cookie (each visitor has its own cluster).
func clusterFault(t *testing.T, base string, cookie *http.Cookie, method, path string) {
	t.Helper()
	req, _ := http.NewRequest(method, base+"/sandbox/cluster/_sandbox/"+path, nil)
	req.Header.Set("Authorization", "ApiKey "+sandbox.DefaultKey)
	req.AddCookie(cookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: status %d", method, path, resp.StatusCode)
	}
}

// Scripts reading the cluster picture.
const (
	pictureHealth = `((document.getElementById("picture-health") || {}).textContent || "")`
	// every copy of every shard is drawn green and started, and there is at least one
	allGreen = `(() => { const c = Array.from(document.querySelectorAll("#cluster-picture .shard-copy"));
		return c.length === 24 && c.every(e => e.classList.contains("health-green") && e.classList.contains("state-STARTED")) || null })()`
)

// TestClusterWaitForGreenFromThePicture starts a wait_for_status=green call while the
// cluster is yellow (node-3 stopped), starts node-3 from the picture's controls, and sees
// the call return 200 once the replicas have recovered, with every cell green.
func TestClusterWaitForGreenFromThePicture(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	cookie := visitorCookie(t, ctx, base)
	clusterFault(t, base, cookie, http.MethodPost, "nodes/node-3/_stop")
	openPage(t, ctx, base+"/cluster/cluster.health#v1&wait_for_status=green&timeout=60s")
	tctx := within(t, ctx, 90*time.Second)
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](pictureHealth+` === "yellow" || null`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the picture does not show the yellow cluster: %v", err)
	}
	if n, _ := chromedp.Run(tctx, chromedp.Evaluate[int](`document.querySelectorAll("#cluster-picture .shard-copy.state-UNASSIGNED").length`)); n != 8 {
		t.Errorf("unassigned cells: got %d; want node-3's 8 replicas", n)
	}
	// Start the wait: it stays pending while the cluster is yellow.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`!!document.querySelector("#cluster-picture .picture-live") && document.getElementById("response").getAttribute("aria-busy") === "true" || null`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the wait is not pending, or the picture does not say it watches: %v", err)
	}
	// Start node-3 from the picture: its replicas come back, the call returns green.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("node-start-node-3"))); err != nil {
		t.Fatal(err)
	}
	// On the way, the picture shows copies moving (fetched, then initializing).
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`!!document.querySelector("#cluster-picture .shard-copy.state-INITIALIZING") || null`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Errorf("the picture never showed an initializing copy: %v", err)
	}
	status, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => { const s = document.getElementById("response-status"); return s && s.textContent || null })()`,
		chromedp.WithPollingTimeout(60*time.Second)))
	if err != nil {
		t.Fatalf("the wait never answered: %v", err)
	}
	if status[:3] != "200" {
		t.Fatalf("the wait answered %q; want 200 (green)", status)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](allGreen, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		cells, _ := chromedp.Run(tctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#cluster-picture .shard-copy")).map(e => e.className)`))
		t.Fatalf("after the green answer, not every cell is green and started: %v (%v)", cells, err)
	}
	if got, _ := chromedp.Run(tctx, chromedp.Evaluate[string](pictureHealth)); got != "green" {
		t.Errorf("picture status: got %q; want green", got)
	}
}

// TestClusterGuidedUpgrade walks the guided security upgrade: perform is disabled until a check
// has run and the configuration is backed up (or the backup knowingly skipped), and says why;
// the check finds roles to upgrade; the backup saves the configuration; perform asks for a
// confirmation (Cancel sends nothing) and upgrades roles and rolesmapping; the check's "needs
// upgrading" does not stay on screen after it; the verification finds nothing left.
func TestClusterGuidedUpgrade(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/cluster/security.config_upgrade_check")
	tctx := within(t, ctx, 90*time.Second)
	text := func(id string) string {
		t.Helper()
		s, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => { const e = document.getElementById("`+id+`"); return e && e.textContent || null })()`,
			chromedp.WithPollingTimeout(20*time.Second)))
		if err != nil {
			t.Fatalf("#%s never showed: %v", id, err)
		}
		return s
	}
	present := func(id string) bool {
		p, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`!!document.getElementById("`+id+`")`))
		return p
	}
	disabled := func(id string) bool {
		d, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`document.getElementById("`+id+`").disabled`))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	click := func(id string) {
		t.Helper()
		if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID(id))); err != nil {
			t.Fatalf("clicking #%s: %v", id, err)
		}
	}
	// waitFor polls until the script is true.
	waitFor := func(what, script string) {
		t.Helper()
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](script+` || null`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	if why := text("upgrade-perform-why"); !disabled("upgrade-perform") || !strings.Contains(why, "check") {
		t.Fatalf("before a check: perform disabled %v, why %q; want disabled until a check", disabled("upgrade-perform"), why)
	}
	click("upgrade-check")
	if got := text("upgrade-check-result"); got != "Needs upgrading: roles." {
		t.Errorf("check: got %q; want roles to upgrade", got)
	}
	// Checked but not backed up: still disabled, and the reason is the backup.
	waitFor("the reason turns to the backup", `(document.getElementById("upgrade-perform-why") || {textContent: ""}).textContent.includes("backed up")`)
	if !disabled("upgrade-perform") {
		t.Fatal("after the check, without a backup: perform is enabled")
	}
	// The skip is explicit: ticking it enables perform, unticking it disables it again.
	click("upgrade-skip-backup")
	waitFor("skipping the backup enables perform", `!document.getElementById("upgrade-perform").disabled`)
	click("upgrade-skip-backup")
	waitFor("unticking the skip disables perform again", `document.getElementById("upgrade-perform").disabled`)
	click("upgrade-backup")
	if got := text("upgrade-backup-result"); !strings.Contains(got, "3 roles, 3 role mappings") {
		t.Errorf("backup: got %q; want the 3 roles and 3 mappings saved", got)
	}
	checked, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`document.getElementById("upgrade-component-roles").checked`))
	if !checked {
		t.Error("the check's component (roles) is not chosen for perform")
	}
	click("upgrade-component-rolesmapping")
	waitFor("backed up: perform is enabled", `!document.getElementById("upgrade-perform").disabled`)
	// Perform asks first; Cancel sends nothing.
	click("upgrade-perform")
	if got := text("upgrade-confirm-box"); !strings.Contains(got, "Upgrade roles, rolesmapping now?") || !strings.Contains(got, "security-backup-") {
		t.Errorf("confirmation: got %q; want it to name the components and the backup", got)
	}
	click("upgrade-cancel")
	waitFor("Cancel closes the confirmation", `!document.getElementById("upgrade-confirm-box")`)
	if present("upgrade-perform-result") {
		t.Fatal("Cancel performed the upgrade")
	}
	click("upgrade-perform")
	click("upgrade-confirm")
	if got := text("upgrade-perform-result"); !strings.Contains(got, "Upgraded: roles, rolesmapping.") || !strings.Contains(got, "Added role flow_framework_full_access") {
		t.Errorf("perform: got %q; want roles and rolesmapping upgraded", got)
	}
	if got := text("upgrade-check-result"); strings.Contains(got, "Needs upgrading") {
		t.Errorf("after the upgrade, step 1 still says %q", got)
	}
	if why := text("upgrade-perform-why"); !disabled("upgrade-perform") || !strings.Contains(why, "checked again") {
		t.Errorf("after the upgrade: perform disabled %v, why %q; want disabled until the next check", disabled("upgrade-perform"), why)
	}
	click("upgrade-verify")
	if got := text("upgrade-verify-result"); got != "Verified: nothing is left to upgrade." {
		t.Errorf("verify: got %q; want nothing left", got)
	}
}
