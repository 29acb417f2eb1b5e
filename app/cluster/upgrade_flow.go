package cluster

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/fetch"
	"loupe/app/ui"
)

// upgradeComponents are the security configuration's components, in the contract's order.
var upgradeComponents = []string{"roles", "rolesmapping", "actiongroups", "config", "internalusers", "tenants"}

// Paths of the calls the guided upgrade makes, through the proxy.
const (
	upgradeCheckURL   = "/proxy/cluster/_plugins/_security/api/_upgrade_check"
	upgradePerformURL = "/proxy/cluster/_plugins/_security/api/_upgrade_perform"
	rolesURL          = "/proxy/cluster/_plugins/_security/api/roles"
	rolesMappingURL   = "/proxy/cluster/_plugins/_security/api/rolesmapping"
)

// upgradeFlow guides the security configuration upgrade as the contract's usage rules say:
// check, back up (download the configuration the upgrade changes as JSON), perform the chosen
// components, verify (check again, expecting nothing left). Each step is the documented call
// through the proxy. Perform stays disabled, and says why, until a check has run since the
// last upgrade and the configuration is backed up (or the backup is skipped, knowingly); it
// then asks for a confirmation that names what changes.
type upgradeFlow struct {
	app.Compo

	busy       string              // the step in flight
	checked    bool                // a check has answered since the last upgrade
	actions    map[string][]string // the last check's upgradeActions; nil once an upgrade ran
	checkMsg   string
	backup     string // what the backup saved
	skipBackup bool   // the user chose to perform without a backup
	chosen     map[string]bool
	confirming bool // perform asks for a confirmation
	perfMsg    string
	upgrades   map[string][]string
	verify     string
	verified   bool // the verification found nothing left
	errMsg     string

	// ctx is the flow's own context, set on mount: an answer is dispatched on it, since the
	// button that asked may be gone by then (Upgrade now closes its confirmation), and go-app
	// drops what is dispatched on a removed element's context.
	ctx     app.Context
	mounted bool
}

func newUpgradeFlow() *upgradeFlow { return &upgradeFlow{} }

// OnMount keeps the flow's own context for the answers of its calls.
func (f *upgradeFlow) OnMount(ctx app.Context) { f.ctx, f.mounted = ctx, true }

// checkBody is the check's answer.
type upgradeCheck struct {
	UpgradeAvailable bool                `json:"upgradeAvailable"`
	UpgradeActions   map[string][]string `json:"upgradeActions"`
}

// call sends one step's request and hands its answer (or error text) to done on the UI
// goroutine.
func (f *upgradeFlow) call(ctx app.Context, step, method, url, body string, done func(status int, body []byte)) {
	f.busy, f.errMsg = step, ""
	if f.mounted {
		ctx = f.ctx
	}
	ctx.Async(func() {
		req := fetch.Request{Method: method, URL: url}
		if body != "" {
			req.Body = []byte(body)
			req.Headers = []fetch.Header{{Name: "Content-Type", Value: "application/json"}}
		}
		var out []byte
		status := 0
		res, err := fetch.Do(context.Background(), req)
		if err == nil {
			status = res.Status
			out, err = io.ReadAll(io.LimitReader(res.Body, 4<<20))
			res.Body.Close()
		}
		ctx.Dispatch(func(app.Context) {
			f.busy = ""
			switch {
			case err != nil:
				f.errMsg = step + " failed: " + err.Error()
			case status != 200:
				f.errMsg = step + " failed: " + ui.ErrorText(out, status)
			default:
				done(status, out)
			}
		})
	})
}

// onCheck runs the check and preselects the components it says need an upgrade.
func (f *upgradeFlow) onCheck(ctx app.Context, e app.Event) {
	f.call(ctx, "The check", "GET", upgradeCheckURL, "", func(_ int, body []byte) {
		var c upgradeCheck
		if err := json.Unmarshal(body, &c); err != nil {
			f.errMsg = "The check's answer could not be read: " + err.Error()
			return
		}
		f.checked, f.actions = true, c.UpgradeActions
		f.chosen = map[string]bool{}
		for comp, ind := range c.UpgradeActions {
			f.chosen[comp] = slices.Contains(ind, "update_required")
		}
		f.checkMsg = "Nothing needs upgrading."
		if c.UpgradeAvailable {
			f.checkMsg = "Needs upgrading: " + strings.Join(f.needed(), ", ") + "."
		}
	})
}

// needed lists the components the last check marked update_required.
func (f *upgradeFlow) needed() []string {
	var out []string
	for _, c := range upgradeComponents {
		if slices.Contains(f.actions[c], "update_required") {
			out = append(out, c)
		}
	}
	return out
}

// onBackup downloads the roles and role mappings (what an upgrade changes) as one JSON file.
func (f *upgradeFlow) onBackup(ctx app.Context, e app.Event) {
	f.call(ctx, "Reading the roles", "GET", rolesURL, "", func(_ int, roles []byte) {
		f.call(ctx, "Reading the role mappings", "GET", rolesMappingURL, "", func(_ int, mappings []byte) {
			var r, m map[string]json.RawMessage
			if json.Unmarshal(roles, &r) != nil || json.Unmarshal(mappings, &m) != nil {
				f.errMsg = "The configuration could not be read as JSON."
				return
			}
			stamp := time.Now().UTC().Format("20060102-150405")
			doc, _ := json.MarshalIndent(map[string]any{"saved_at": time.Now().UTC().Format(time.RFC3339), "roles": r, "rolesmapping": m}, "", "  ")
			name := "security-backup-" + stamp + ".json"
			download(name, doc)
			f.backup = "Saved " + name + ": " + ui.Itoa(len(r)) + " roles, " + ui.Itoa(len(m)) + " role mappings."
		})
	})
}

// download hands data to the browser as a file download.
func download(name string, data []byte) {
	arr := app.Window().Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(arr, data)
	parts := app.Window().Get("Array").New(arr)
	opts := app.Window().Get("Object").New()
	opts.Set("type", "application/json")
	blob := app.Window().Get("Blob").New(parts, opts)
	url := app.Window().Get("URL").Call("createObjectURL", blob)
	a := app.Window().Get("document").Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Call("click")
	app.Window().Get("URL").Call("revokeObjectURL", url)
}

// chosenList lists the components chosen for perform, in the contract's order.
func (f *upgradeFlow) chosenList() []string {
	var list []string
	for _, c := range upgradeComponents {
		if f.chosen[c] {
			list = append(list, c)
		}
	}
	return list
}

// performBlocked says why perform cannot run yet, or "" when it can.
func (f *upgradeFlow) performBlocked() string {
	switch {
	case !f.checked && f.perfMsg != "":
		return "Perform is disabled until the configuration is checked again (step 4): the upgrade changed what the last check saw."
	case !f.checked:
		return "Perform is disabled until a check has run: the check says which components need upgrading."
	case f.backup == "" && !f.skipBackup:
		return "Perform is disabled until the configuration is backed up (step 2): an upgrade cannot be undone from here. If you keep a copy elsewhere, choose to skip the backup."
	case len(f.chosenList()) == 0:
		return "Choose at least one component to upgrade."
	}
	return ""
}

// onPerform asks to confirm the upgrade of the chosen components.
func (f *upgradeFlow) onPerform(ctx app.Context, e app.Event) {
	if why := f.performBlocked(); why != "" {
		f.errMsg = why
		return
	}
	f.confirming, f.errMsg = true, ""
}

// onCancel drops the confirmation: nothing was sent.
func (f *upgradeFlow) onCancel(ctx app.Context, e app.Event) { f.confirming = false }

// onConfirm upgrades the chosen components. The check it relied on is then out of date: step 1
// says so, and perform waits for the next check (step 4).
func (f *upgradeFlow) onConfirm(ctx app.Context, e app.Event) {
	f.confirming = false
	if why := f.performBlocked(); why != "" {
		f.errMsg = why
		return
	}
	body, _ := json.Marshal(map[string][]string{"config": f.chosenList()})
	f.call(ctx, "Perform", "POST", upgradePerformURL, string(body), func(_ int, out []byte) {
		var p struct {
			Upgrades map[string][]string `json:"upgrades"`
		}
		if err := json.Unmarshal(out, &p); err != nil {
			f.errMsg = "Perform's answer could not be read: " + err.Error()
			return
		}
		f.upgrades, f.verify, f.verified = p.Upgrades, "", false
		f.perfMsg = "Nothing was upgraded: the chosen components were up to date."
		if len(p.Upgrades) > 0 {
			f.perfMsg = "Upgraded: " + strings.Join(sortedKeys(p.Upgrades), ", ") + "."
		}
		f.checked, f.actions, f.chosen = false, nil, map[string]bool{}
		f.checkMsg = "The upgrade ran after this check: step 4 checks again."
	})
}

// onVerify checks again, expecting nothing left to upgrade.
func (f *upgradeFlow) onVerify(ctx app.Context, e app.Event) {
	f.call(ctx, "The verification", "GET", upgradeCheckURL, "", func(_ int, body []byte) {
		var c upgradeCheck
		if err := json.Unmarshal(body, &c); err != nil {
			f.errMsg = "The check's answer could not be read: " + err.Error()
			return
		}
		f.checked, f.actions, f.verified = true, c.UpgradeActions, !c.UpgradeAvailable
		f.verify = "Verified: nothing is left to upgrade."
		if c.UpgradeAvailable {
			f.verify = "Still needs upgrading: " + strings.Join(f.needed(), ", ") + ". It is chosen above: perform again."
			f.chosen = map[string]bool{}
			for _, n := range f.needed() {
				f.chosen[n] = true
			}
		}
	})
}

// sortedKeys lists m's keys in the contract's component order.
func sortedKeys(m map[string][]string) []string {
	var out []string
	for _, c := range upgradeComponents {
		if _, ok := m[c]; ok {
			out = append(out, c)
		}
	}
	return out
}
