package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/op"
	"loupe/app/snippet"
	"loupe/app/ui"
)

// apiPage is one API's page: its guide, how credentials are handled and its operations.
type apiPage struct {
	app.Compo

	// API is the API to present.
	API *catalog.API

	oauth catalog.OAuthStatus // the last sign-in status the OAuth panel fetched ("" API before any)
}

func newAPIPage(a *catalog.API) *apiPage { return &apiPage{API: a} }

// OnMount follows the sign-in status, which decides the credential the proxy adds.
func (p *apiPage) OnMount(ctx app.Context) { ctx.ObserveState(op.OAuthStatusState, &p.oauth) }

// Render implements app.Composer.
func (p *apiPage) Render() app.UI {
	a := p.API
	var rows []app.UI
	for i := range a.Operations {
		op := &a.Operations[i]
		rows = append(rows, app.Tr().Body(
			app.Td().Body(ui.MethodBadge(op.Method)),
			app.Td().Body(app.A().Href(ui.Href("/"+a.Slug+"/"+op.ID)).Class("mono").Text(op.ID)),
			app.Td().Class("mono path").Text(op.Path),
			app.Td().Text(op.Summary),
		))
	}
	var held []app.UI
	for _, c := range op.HeldNow(a, nil, p.oauth) {
		text := c.String()
		if ui.StaticMode() {
			text = strings.ReplaceAll(text, snippet.HeldValue, "‹the sandbox key, or yours›")
		}
		held = append(held, app.Li().Body(app.Code().Text(text)))
	}
	// Signed out of an API that signs in with OAuth and has no key to fall back on: nothing.
	signedOutBare := p.oauth.API == a.Slug && !p.oauth.SignedIn && len(held) == 0
	body := []app.UI{
		app.Header().Class("page-head").Body(
			app.P().Class("crumbs").Body(app.A().Href(ui.Href("/")).Text("APIs"), app.Text(" / ")),
			app.H1().Body(app.Text(a.Title), app.If(!titleHasVersion(a), func() app.UI {
				return app.Span().Class("version").Text(versionLabel(a.Version))
			})),
			app.If(a.Summary != "", func() app.UI { return app.P().Class("lede").Text(a.Summary) }),
			app.Dl().Class("facts").Body(
				app.Dt().Text("Requests go to"),
				app.If(ui.StaticMode(), func() app.UI {
					return app.Dd().Text("the built-in sandbox, running in your browser (or the real API, with the key you type in the banner above)")
				}).Else(func() app.UI { return app.Dd().Body(app.Code().Text("/proxy/" + a.Slug + "/…")) }),
				app.If(len(a.Servers) > 0, func() app.UI {
					return app.Div().Body(app.Dt().Text("Real API"), app.Dd().Body(app.Code().Text(a.Servers[0])))
				}),
				app.If(a.Own && (a.OwnSandbox || ui.StaticMode()), func() app.UI {
					return app.Div().Class("own-api").Body(app.Dt().Text("Sandbox"), app.Dd().Body(
						app.Text("built from its document alone: requests are checked against it, answers come from its examples or schemas, and the collections below keep what you change. "),
						app.If(!ui.StaticMode(), func() app.UI {
							return app.Span().Body(app.Text("Set "), app.Code().Text("apis."+a.Slug+".base_url"),
								app.Text(" in Loupe's configuration to send its calls to a real server instead."))
						})))
				}).ElseIf(a.Own, func() app.UI {
					return app.Div().Class("own-api").Body(app.Dt().Text("Sandbox"), app.Dd().Body(
						app.Text("not used: its calls go to "),
						app.Code().Text("apis."+a.Slug+".base_url"),
						app.Text(" in Loupe's configuration (or "), app.Code().Text("LOUPE_"+strings.ToUpper(a.Slug)+"_URL"),
						app.Text(")"),
						app.If(len(a.Servers) > 0 && strings.HasPrefix(a.Servers[0], "http"), func() app.UI {
							return app.Span().Body(app.Text(", such as its document's server "), app.Code().Text(a.Servers[0]))
						}),
						app.Text(". With no base_url and "), app.Code().Text("apis."+a.Slug+".sandbox: false"),
						app.Text(", Send answers with what to set; with no base_url otherwise, a sandbox built from its document answers.")))
				}),
				app.Dt().Text("OpenAPI document"),
				app.Dd().Body(app.A().ID("openapi-download").Href(ui.Href("/openapi/"+a.Slug+".yaml")).
					Attr("download", a.Slug+".yaml").Text(a.Slug+".yaml")),
				app.If(len(held) > 0, func() app.UI {
					return app.Div().ID("held").Body(app.Dt().Text("Credentials"), app.Dd().Body(
						app.Text(heldBy()),
						app.Ul().Class("held-list").Body(held...)))
				}).ElseIf(signedOutBare, func() app.UI {
					return app.Div().ID("held").Body(app.Dt().Text("Credentials"), app.Dd().Text(
						"none while you are signed out: sign in below, and the server adds your grant's token."))
				}),
			),
		),
		app.If(holdsState(a) && !ui.StaticMode(), func() app.UI { return newSandboxReset(a) }),
	}
	// The sections features add (ui.APISection), those ranked below 0 before the guide.
	cat, sections := currentCatalog(), ui.APISections()
	i := 0
	for ; i < len(sections) && sections[i].Rank < 0; i++ {
		body = append(body, sections[i].Render(cat, a))
	}
	body = append(body, app.If(a.GuideHTML != "", func() app.UI { return ui.HTML("prose guide", a.GuideHTML) }).
		Else(func() app.UI { return ui.HTML("prose", a.DescriptionHTML) }))
	for ; i < len(sections); i++ {
		body = append(body, sections[i].Render(cat, a))
	}
	return app.Div().Class("page api-page").Body(append(body,
		app.Section().Class("op-table").Aria("label", "Operations").Body(
			app.H2().Text("Operations"),
			app.Table().Body(
				app.THead().Body(app.Tr().Body(app.Th().Text("Method"), app.Th().Text("Operation"), app.Th().Text("Path"), app.Th().Text("Summary"))),
				app.TBody().Body(rows...),
			),
		),
	)...)
}

// titleHasVersion reports whether an API's title already ends with its version ("Documentation
// hosting API v2"), so that the heading does not say it twice.
func titleHasVersion(a *catalog.API) bool {
	v := versionLabel(a.Version)
	return v != "" && strings.HasSuffix(strings.ToLower(a.Title), " "+strings.ToLower(v))
}

// versionLabel writes an API version with one leading "v".
func versionLabel(v string) string {
	if v != "" && v[0] >= '0' && v[0] <= '9' {
		return "v" + v
	}
	return v
}

// heldBy says who adds an API's credentials: the server, or in the static explorer the page
// itself (the sandbox's public key, or the key typed in the banner).
func heldBy() string {
	if ui.StaticMode() {
		return "added in your browser: the sandbox's own key, or the key you type for the real API (kept in this tab only):"
	}
	return "added by the server, never sent to the browser:"
}
