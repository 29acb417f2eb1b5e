package app

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/ui"
)

// sandboxHoldsState lists the APIs whose built-in sandbox keeps what a user changes (each user
// their own, server/sandbox/state): the ones an API page offers to reset, with every API of
// your own answered by the sandbox built from its document (holdsState). The others answer
// from read-only data.
var sandboxHoldsState = map[string]bool{"script": true, "cluster": true, "pagination": true}

// holdsState reports whether a's sandbox keeps what a user changes, so its page offers Reset.
func holdsState(a *catalog.API) bool { return sandboxHoldsState[a.Slug] || (a.Own && a.OwnSandbox) }

// sandboxResetURL is the server's reset of one API's sandbox for the caller's session only
// (server/sandbox/state.ResetPath; the sandbox-session cookie or the signed-in name says whose).
func sandboxResetURL(slug string) string { return "/sandbox/" + slug + "/_sandbox/reset" }

// sandboxReset is an API's Reset on a Loupe server: it puts that API's built-in sandbox back to
// its seeded data for this user only (the server keeps one sandbox state per user). A first
// click asks to confirm and says what is lost; the outcome is announced. The static explorer
// has its own Reset in the mode banner (the sandboxes of this tab).
type sandboxReset struct {
	app.Compo

	// API is the API whose sandbox is reset.
	API *catalog.API

	confirming bool
	busy       bool
	result     string // what the last reset did
	failed     bool   // the last reset failed
}

func newSandboxReset(a *catalog.API) *sandboxReset { return &sandboxReset{API: a} }

// Render implements app.Composer.
func (r *sandboxReset) Render() app.UI {
	name := r.API.Slug // short, and the name the API's URLs use; the full title is the page's heading
	var body []app.UI
	switch {
	case r.confirming || r.busy:
		body = append(body,
			app.P().ID("sandbox-reset-what").Text("Reset restores the seeded "+name+" sandbox for you only: what you created or changed in it is lost. Nobody else's sandbox changes."),
			app.Button().ID("sandbox-reset-confirm").Type("button").Class("btn btn-small btn-danger").Disabled(r.busy).
				Text(map[bool]string{true: "Resetting…", false: "Reset my " + name + " sandbox"}[r.busy]).OnClick(r.onConfirm),
			app.Button().ID("sandbox-reset-cancel").Type("button").Class("btn btn-small btn-quiet").Disabled(r.busy).Text("Cancel").OnClick(r.onCancel),
		)
	default:
		body = append(body,
			app.Span().Class("muted").Text("The "+name+" sandbox is yours: what you change in it, nobody else sees."),
			app.Button().ID("sandbox-reset").Type("button").Class("btn btn-small").Text("Reset…").
				Title("Reset restores the seeded "+name+" sandbox for you only").OnClick(r.onAsk),
		)
	}
	body = append(body, app.P().ID("sandbox-reset-result").Class(map[bool]string{true: "form-status", false: "muted"}[r.failed]).
		Role("status").Text(r.result))
	return app.Section().ID("sandbox-reset-box").Class("sandbox-reset").Aria("label", "Reset the sandbox").Body(body...)
}

func (r *sandboxReset) onAsk(ctx app.Context, e app.Event) {
	r.confirming, r.result, r.failed = true, "", false
	ctx.Defer(func(app.Context) { ui.FocusByID("sandbox-reset-cancel") })
}

func (r *sandboxReset) onCancel(ctx app.Context, e app.Event) {
	r.confirming = false
	ctx.Defer(func(app.Context) { ui.FocusByID("sandbox-reset") })
}

// onConfirm asks the server for the reset.
func (r *sandboxReset) onConfirm(ctx app.Context, e app.Event) {
	if r.busy {
		return
	}
	r.busy = true
	slug := r.API.Slug
	ctx.Async(func() {
		err := resetSandbox(slug)
		ctx.Dispatch(func(ctx app.Context) {
			r.busy, r.confirming = false, false
			if err != nil {
				r.result, r.failed = "Reset failed: "+err.Error(), true
				return
			}
			r.result, r.failed = "Done: your "+slug+" sandbox is back to its seeded data.", false
			ctx.Defer(func(app.Context) { ui.FocusByID("sandbox-reset") })
		})
	})
}

// resetSandbox puts slug's sandbox back to its seeded data for this user with the server's
// per-session reset.
func resetSandbox(slug string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := fetch.Do(ctx, fetch.Request{Method: "POST", URL: sandboxResetURL(slug)})
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 16<<10))
	if err != nil {
		return err
	}
	if res.Status != 200 {
		return errors.New(ui.ErrorText(body, res.Status))
	}
	return nil
}
