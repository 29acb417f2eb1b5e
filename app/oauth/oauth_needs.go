package oauth

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/op"
	"loupe/app/ui"
)

func init() {
	op.AddFormNote(func(a *catalog.API, op *catalog.Operation) app.UI { return newOAuthNeeds(a, op) })
}

// oauthNeeds says, on an operation page of an API that signs in with OAuth, which scopes the
// operation needs (its security requirements), whether the current grant covers them and so
// which credential Send goes with, before Send: "needs script.projects — not granted: sign in
// again with it", with the link that does.
type oauthNeeds struct {
	app.Compo

	// API and Op are the operation.
	API *catalog.API
	Op  *catalog.Operation

	st     *catalog.OAuthStatus
	back   string
	ticked map[string]bool // the scopes ticked in the signed-out picker; nil until first shown
	shown  string          // the operation ticked was made for
}

func newOAuthNeeds(a *catalog.API, op *catalog.Operation) *oauthNeeds {
	return &oauthNeeds{API: a, Op: op}
}

// OnMount asks the server who is signed in.
func (n *oauthNeeds) OnMount(ctx app.Context) { n.load(ctx) }

// OnUpdate asks again when the parent shows an operation of another API.
func (n *oauthNeeds) OnUpdate(ctx app.Context) {
	if n.st != nil && n.st.API != n.API.Slug {
		n.st = nil
		n.load(ctx)
	}
}

func (n *oauthNeeds) load(ctx app.Context) {
	if ui.StaticMode() || !usesOAuth(n.API) {
		return
	}
	slug := n.API.Slug
	n.back = currentPath()
	ctx.Async(func() {
		st, err := fetchOAuthStatus(slug)
		if err != nil || st == nil {
			return // the operation works as before; the panel on the API page says more
		}
		ctx.Dispatch(func(ctx app.Context) {
			n.st = st
			ctx.SetState(op.OAuthStatusState, *st)
		})
	})
}

// OnNav keeps the return path right when the same component shows another operation.
func (n *oauthNeeds) OnNav(ctx app.Context) { n.back = currentPath() }

// oauthAlternatives lists the scope sets of op's oauth2 requirements (any one is enough); ok
// is false when op cannot be called with OAuth at all.
func oauthAlternatives(a *catalog.API, op *catalog.Operation) (alts [][]string, ok bool) {
	oauth := map[string]bool{}
	for _, s := range a.Security {
		if s.Type == "oauth2" {
			oauth[s.Name] = true
		}
	}
	for _, req := range op.Security {
		for _, sc := range req.Schemes {
			if oauth[sc.Scheme] {
				alts = append(alts, sc.Scopes)
				ok = true
			}
		}
	}
	return alts, ok
}

// Render implements app.Composer.
func (n *oauthNeeds) Render() app.UI {
	st := n.st
	alts, ok := oauthAlternatives(n.API, n.Op)
	if st == nil || !ok {
		return app.Div().ID("oauth-needs").Class("oauth-needs").Hidden(true)
	}
	var names []string
	covered := false
	var first, granted []string // the first alternative, to sign in again with; the one granted
	for i, alt := range alts {
		var short []string
		all := true
		for _, s := range alt {
			short = append(short, shortScope(s))
			all = all && st.Granted(s)
		}
		if len(alt) == 0 {
			short = []string{"any scope"}
		}
		names = append(names, strings.Join(short, " + "))
		if all && !covered {
			covered, granted = true, short
		}
		if i == 0 {
			first = alt
		}
	}
	needs := "Needs " + strings.Join(names, " or ")
	if len(names) > 3 {
		needs = "Needs one of " + ui.Itoa(len(names)) + " scopes (" + strings.Join(names[:3], ", ") + ", …)"
	}
	var body []app.UI
	switch {
	case !st.SignedIn:
		return n.renderSignedOut(st, alts)
	case covered:
		who := "your grant"
		if st.Who != "" {
			who += " (" + st.Who + ")"
		}
		body = append(body, app.Strong().Text("Needs "+strings.Join(granted, " + ")+" · granted ✓"), app.Text(" Send goes with "+who+"."))
	default:
		missing := missingScopes(first, st)
		scopes := append(append([]string(nil), st.Scopes...), missing...)
		body = append(body,
			app.Strong().Text(needs+" — not granted: sign in again with "+strings.Join(shortAll(missing), " + ")+"."),
			app.Text(" Your grant has "+strings.Join(shortAll(st.Scopes), ", ")+"; Send goes with it and "+n.API.Title+" will answer 403. "),
			app.A().ID("oauth-needs-signin").Href(st.StartURL(scopes, n.back)).OnClick(onServerLink).Text("Sign in again with "+strings.Join(shortAll(missing), " + ")),
		)
	}
	class := "oauth-needs"
	if st.SignedIn && !covered {
		class += " oauth-needs-missing"
	}
	return app.Div().ID("oauth-needs").Class(class).DataSet("covered", covered).Role("note").Body(body...)
}

// onServerLink follows a link to one of the server's own routes (/oauth/start) as a full page
// load: go-app would otherwise take the click for a move between the app's pages and show
// its not-found page. A click with Ctrl or Meta keeps its new tab.
func onServerLink(ctx app.Context, e app.Event) {
	if e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() {
		return
	}
	e.PreventDefault()
	e.Call("stopPropagation")
	app.Window().Get("location").Set("href", ctx.JSSrc().Get("href").String())
}

// missingScopes are the scopes of alt that st does not grant.
func missingScopes(alt []string, st *catalog.OAuthStatus) []string {
	var out []string
	for _, s := range alt {
		if !st.Granted(s) {
			out = append(out, s)
		}
	}
	return out
}

func shortAll(scopes []string) []string {
	out := make([]string, len(scopes))
	for i, s := range scopes {
		out[i] = shortScope(s)
	}
	return out
}
