package cluster

import (
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Render implements app.Composer: the four steps, each with its button and its outcome.
func (f *upgradeFlow) Render() app.UI {
	busy := f.busy != ""
	why := f.performBlocked()
	return app.Section().ID("upgrade-flow").Class("upgrade-flow").Aria("label", "Guided security upgrade").Body(
		app.H2().Class("picture-title").Text("Guided upgrade"),
		app.Ol().Class("upgrade-steps").Body(
			f.step("1. Check", "upgrade-check", "Check", "Reports what needs upgrading; changes nothing.", !busy, f.onCheck,
				app.If(f.checkMsg != "", func() app.UI { return app.P().ID("upgrade-check-result").Text(f.checkMsg) })),
			f.step("2. Back up (required)", "upgrade-backup", "Download the configuration (JSON)",
				"Saves the roles and role mappings, which an upgrade changes, to a file: the usage rules ask for a backup before performing.", !busy, f.onBackup,
				app.If(f.backup != "", func() app.UI {
					return app.P().ID("upgrade-backup-result").Text(f.backup)
				}).Else(func() app.UI { return f.skipChoice() })),
			app.Li().Class("upgrade-step").Body(
				app.Strong().Text("3. Perform"),
				app.Div().Class("upgrade-components").Body(f.components()...),
				app.Button().ID("upgrade-perform").Type("button").Class("btn btn-primary btn-small").
					Disabled(why != "" || busy || f.confirming).Text("Perform…").OnClick(f.onPerform),
				app.If(why != "", func() app.UI { return app.P().ID("upgrade-perform-why").Class("muted").Text(why) }),
				app.If(f.confirming, func() app.UI { return f.confirmation() }),
				app.If(f.perfMsg != "", func() app.UI {
					var items []app.UI
					for _, c := range sortedKeys(f.upgrades) {
						for _, change := range f.upgrades[c] {
							items = append(items, app.Li().Body(app.Code().Text(c), app.Text(": "+change)))
						}
					}
					return app.Div().ID("upgrade-perform-result").Body(app.P().Text(f.perfMsg), app.Ul().Body(items...))
				}),
			),
			f.step("4. Verify", "upgrade-verify", "Check again", "Expects nothing left to upgrade.", !busy && f.perfMsg != "", f.onVerify,
				app.If(f.verify != "", func() app.UI {
					cls := "upgrade-warn"
					if f.verified {
						cls = "upgrade-ok"
					}
					return app.P().ID("upgrade-verify-result").Class(cls).Text(f.verify)
				})),
		),
		app.P().Class("form-status").Aria("live", "polite").Body(
			app.If(busy, func() app.UI { return app.Text(f.busy + "…") }),
			app.If(f.errMsg != "", func() app.UI { return app.Span().ID("upgrade-error").Class("picture-error").Text(f.errMsg) }),
		),
	)
}

// skipChoice lets the user perform without the backup, knowingly.
func (f *upgradeFlow) skipChoice() app.UI {
	return app.Label().Class("upgrade-skip").Body(
		app.Input().ID("upgrade-skip-backup").Type("checkbox").Checked(f.skipBackup).
			OnChange(func(ctx app.Context, e app.Event) { f.skipBackup = ctx.JSSrc().Get("checked").Bool() }),
		app.Text(" Skip the backup: I keep a copy of the security configuration elsewhere, and know the upgrade cannot be undone from Loupe."),
	)
}

// confirmation asks before perform changes the cluster, naming what changes and the backup.
func (f *upgradeFlow) confirmation() app.UI {
	backup := "No backup was taken: you chose to skip it."
	if f.backup != "" {
		backup = "Backup: " + f.backup
	}
	return app.Div().ID("upgrade-confirm-box").Class("upgrade-confirm").Role("alertdialog").
		Aria("labelledby", "upgrade-confirm-title").Aria("describedby", "upgrade-confirm-what").Body(
		app.P().ID("upgrade-confirm-title").Body(app.Strong().Text("Upgrade "+strings.Join(f.chosenList(), ", ")+" now?")),
		app.P().ID("upgrade-confirm-what").Text("This changes the cluster's security configuration (roles and the permissions they grant). "+backup),
		app.Div().Class("upgrade-confirm-actions").Body(
			app.Button().ID("upgrade-confirm").Type("button").Class("btn btn-primary btn-small").Text("Upgrade now").OnClick(f.onConfirm),
			app.Button().ID("upgrade-cancel").Type("button").Class("btn btn-small").Text("Cancel").OnClick(f.onCancel),
		),
	)
}

// step renders one step: its title, what it does, its button and its outcome.
func (f *upgradeFlow) step(title, id, label, what string, enabled bool, onClick app.EventHandler, outcome app.UI) app.UI {
	return app.Li().Class("upgrade-step").Body(
		app.Strong().Text(title),
		app.Span().Class("muted").Text(" "+what),
		app.Div().Body(app.Button().ID(id).Type("button").Class("btn btn-small").Disabled(!enabled).Text(label).OnClick(onClick)),
		outcome,
	)
}

// components renders a checkbox per component, with what the last check said of it.
func (f *upgradeFlow) components() []app.UI {
	var out []app.UI
	for _, c := range upgradeComponents {
		name := c
		note := ""
		switch {
		case slices.Contains(f.actions[c], "update_required"):
			note = " (update required)"
		case len(f.actions[c]) > 0:
			note = " (up to date)"
		}
		out = append(out, app.Label().Class("upgrade-component").Body(
			app.Input().ID("upgrade-component-"+name).Type("checkbox").Checked(f.chosen[name]).Disabled(!f.checked).
				OnChange(func(ctx app.Context, e app.Event) {
					if f.chosen == nil {
						f.chosen = map[string]bool{}
					}
					f.chosen[name] = ctx.JSSrc().Get("checked").Bool()
				}),
			app.Text(" "+name+note),
		))
	}
	return out
}
