package oauth

import (
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// This file renders the operation note of a visitor who has not signed in: one line saying what
// Send goes with, and, folded under it, the scopes this operation accepts, to sign in with only
// those. Signing in is optional where a key stands in (the sandboxes work without it), so the
// note never opens on a wall of ticked scopes: it ticks what the operation needs (its only
// alternative, or its read-only one) and nothing else, as Google's APIs Explorer does at Execute.

// renderSignedOut is the note for a visitor who has not signed in; alts are the operation's
// scope alternatives (any one is enough).
func (n *oauthNeeds) renderSignedOut(st *catalog.OAuthStatus, alts [][]string) app.UI {
	scopes := distinctScopes(alts)
	if n.ticked == nil || n.shown != n.Op.ID {
		n.ticked, n.shown = map[string]bool{}, n.Op.ID
		for _, s := range defaultScopes(alts) {
			n.ticked[s] = true
		}
	}
	var chosen []string
	var rows []app.UI
	for i, sc := range scopes {
		id := "oauth-needs-scope-" + ui.Itoa(i)
		if n.ticked[sc] {
			chosen = append(chosen, sc)
		}
		rows = append(rows, app.Li().Body(
			app.Input().ID(id).Type("checkbox").Value(sc).Checked(n.ticked[sc]).DataSet("scope", sc).OnChange(n.onTick),
			app.Label().For(id).Body(app.Code().Title(sc).Text(shortScope(sc)), app.Text(" "+describe(st, sc))),
		))
	}
	via := "no credential: it will be refused until you sign in"
	if st.Fallback != "" {
		via = st.Fallback
	}
	lead := "Sign in with OAuth (optional): "
	if st.Fallback == "" {
		lead = "Sign in with OAuth: "
	}
	hint := "Tick the scopes to ask for."
	if len(alts) > 1 {
		hint = "Any one of these is enough; tick the one to ask for."
	}
	var signIn app.UI = app.Span().ID("oauth-needs-signin").Class("muted").Text("Tick a scope to sign in")
	if len(chosen) > 0 {
		signIn = app.A().ID("oauth-needs-signin").Class("btn btn-small").Href(st.StartURL(chosen, n.back)).OnClick(onServerLink).
			Text("Sign in with " + strings.Join(shortAll(chosen), " + "))
	}
	return app.Div().ID("oauth-needs").Class("oauth-needs oauth-needs-out").DataSet("covered", false).Role("note").Body(
		app.P().Body(app.Strong().Text(lead), app.Text("you have not signed in to "+n.API.Title+", so Send goes with "+via+".")),
		app.Details().ID("oauth-needs-picker").Class("oauth-picker").Open(st.Fallback == "").Body(
			app.Summary().Text("Sign in with what "+n.Op.ID+" needs ("+ui.Plural(len(scopes), "scope", "scopes")+")"),
			app.P().Class("oauth-hint").Text(hint),
			app.Ul().Class("oauth-scopes").Body(rows...),
			signIn,
		),
	)
}

// onTick follows a scope's box in the signed-out picker.
func (n *oauthNeeds) onTick(ctx app.Context, e app.Event) {
	n.ticked[ctx.JSSrc().Get("dataset").Get("scope").String()] = ctx.JSSrc().Get("checked").Bool()
}

// distinctScopes lists the scopes of alts, each once, in order.
func distinctScopes(alts [][]string) []string {
	var out []string
	for _, alt := range alts {
		for _, s := range alt {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// defaultScopes are the scopes ticked at first: the operation's only alternative, else its
// read-only one (every scope ends in .readonly), else none: among scopes that each allow
// something else (mail, calendars, drive), which to grant is the visitor's choice.
func defaultScopes(alts [][]string) []string {
	if len(alts) == 1 {
		return alts[0]
	}
	for _, alt := range alts {
		if len(alt) > 0 && !slices.ContainsFunc(alt, func(s string) bool { return !strings.HasSuffix(s, ".readonly") }) {
			return alt
		}
	}
	return nil
}

// describe is what a scope allows, as the server's list of scopes says, or "".
func describe(st *catalog.OAuthStatus, scope string) string {
	for _, a := range st.Available {
		if a.Name == scope {
			return a.Description
		}
	}
	return ""
}
