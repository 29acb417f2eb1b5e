package oauth

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/op"
	"loupe/app/ui"
)

func init() {
	ui.AddAPISection(ui.APISection{Rank: -20, Render: func(cat *catalog.Catalog, a *catalog.API) app.UI { return newOAuthPanel(a) }})
}

// oauthPanel is "Sign in to <API>" on the page of an API that signs in with OAuth: a scope
// picker, folded (every scope of the document's oauth2 scheme with what it allows, none ticked:
// each operation's page offers the scopes it needs) that opens the provider's consent page;
// once back, who is signed in, the scopes granted and Sign out. The tokens stay on the server:
// the panel only reads /oauth/status.
type oauthPanel struct {
	app.Compo

	// API is the page's API.
	API *catalog.API

	st      *catalog.OAuthStatus
	back    string
	err     string
	pickErr string // why Sign in did not go: no scope ticked
}

func newOAuthPanel(a *catalog.API) *oauthPanel { return &oauthPanel{API: a} }

// OnMount asks the server whether the API signs in and who is signed in.
func (p *oauthPanel) OnMount(ctx app.Context) {
	if ui.StaticMode() || !usesOAuth(p.API) {
		return
	}
	slug := p.API.Slug
	p.back = currentPath()
	ctx.Async(func() {
		st, err := fetchOAuthStatus(slug)
		ctx.Dispatch(func(ctx app.Context) {
			p.st = st
			if st != nil {
				ctx.SetState(op.OAuthStatusState, *st) // the page's Credentials line says what is sent
			}
			if err != nil {
				p.err = "Loupe could not tell whether you are signed in to " + p.API.Title + ": " + err.Error()
			}
		})
	})
}

// Render implements app.Composer.
func (p *oauthPanel) Render() app.UI {
	if p.err != "" {
		return app.Section().ID("oauth-panel").Class("oauth-panel").Body(app.P().Class("oauth-error").Text(p.err))
	}
	st := p.st
	if st == nil {
		return app.Section().ID("oauth-panel").Class("oauth-panel").Hidden(true)
	}
	title := p.API.Title
	var head []app.UI
	if st.SignedIn {
		who := "Signed in to " + title
		if st.Who != "" {
			who += " as " + st.Who
		}
		var granted []app.UI
		for _, sc := range st.Scopes {
			granted = append(granted, app.Li().Body(app.Code().Title(sc).Text(shortScope(sc))))
		}
		renew := "The access token is renewed before it expires, on the server."
		if !st.Renews {
			renew = "The provider gave no refresh token: when the access token expires, sign in again."
		}
		head = append(head,
			app.H2().ID("oauth-who").Text(who),
			app.P().Text("Calls to "+title+" go with your grant, which the server holds. Scopes granted:"),
			app.Ul().ID("oauth-granted").Class("oauth-granted").Body(granted...),
			app.P().Class("oauth-hint").Text(renew),
			app.Form().ID("oauth-signout").Method("post").Action(st.Signout+"?api="+st.API+"&return="+p.back).Body(
				app.Button().ID("oauth-signout-btn").Type("submit").Class("btn btn-quiet").Text("Sign out of "+title)),
		)
	} else {
		fallback := "no credential"
		if st.Fallback != "" {
			fallback = st.Fallback
		}
		head = append(head,
			app.H2().ID("oauth-who").Text("Sign in to "+title),
			app.P().Text("You have not signed in: calls to "+title+" go with "+fallback+". "+
				"Signing in calls it with your own grant, limited to the scopes you choose (each operation's page offers the ones it needs); the server keeps the tokens."),
		)
	}
	return app.Section().ID("oauth-panel").Class("oauth-panel").Aria("label", "Sign in to "+title).Body(
		app.Div().Body(head...),
		p.renderPicker(st),
	)
}

// renderPicker is the scope picker: a plain form, so the browser goes to /oauth/start and on
// to the consent page.
func (p *oauthPanel) renderPicker(st *catalog.OAuthStatus) app.UI {
	var rows []app.UI
	for i, sc := range st.Available {
		id := "oauth-scope-" + ui.Itoa(i)
		rows = append(rows, app.Li().Body(
			app.Input().ID(id).Type("checkbox").Name("scope").Value(sc.Name).Checked(st.Granted(sc.Name)),
			app.Label().For(id).Body(app.Code().Title(sc.Name).Text(shortScope(sc.Name)), app.Text(" "+sc.Description)),
		))
	}
	label := "Sign in to " + p.API.Title
	summary := "Choose the scopes to sign in with (" + ui.Plural(len(st.Available), "scope", "scopes") + ")"
	if st.SignedIn {
		label = "Sign in again"
		summary = "Sign in again with other scopes"
	}
	return app.Details().Class("oauth-picker").Body(
		app.Summary().Text(summary),
		app.Form().ID("oauth-start").Method("get").Action(st.Start).OnSubmit(p.onSignIn).Body(
			app.Input().Type("hidden").Name("api").Value(st.API),
			app.Input().Type("hidden").Name("return").Value(p.back),
			app.Ul().Class("oauth-scopes").Body(rows...),
			app.Button().ID("oauth-signin").Type("submit").Class("btn").Text(label),
			app.If(p.pickErr != "", func() app.UI {
				return app.P().ID("oauth-pick-error").Class("oauth-error").Role("alert").Text(p.pickErr)
			}),
		),
	)
}

// onSignIn goes to /oauth/start with the ticked scopes by navigating rather than submitting
// the form: the page's CSP (form-action 'self') would stop a submitted form's redirect to a
// provider on another site, such as Google's consent page.
func (p *oauthPanel) onSignIn(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if p.st == nil {
		return
	}
	boxes := ctx.JSSrc().Call("querySelectorAll", `input[name="scope"]:checked`)
	var scopes []string
	for i := 0; i < boxes.Length(); i++ {
		scopes = append(scopes, boxes.Index(i).Get("value").String())
	}
	if len(scopes) == 0 {
		p.pickErr = "Tick at least one scope to ask for."
		return
	}
	p.pickErr = ""
	app.Window().Get("location").Set("href", p.st.StartURL(scopes, p.back))
}
