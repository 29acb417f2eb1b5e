package app

import (
	"encoding/base64"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/ui"
)

// modeBanner says, in the static explorer, where Send goes on this page: the sandboxes running
// in the browser (with Reset), or the API's real server with a key the user typed, which stays
// in this tab's memory. It shows nothing when a Loupe server answers.
type modeBanner struct {
	app.Compo

	// API is the page's API; nil on the overview.
	API *catalog.API

	baseURL string // the real server to use, as typed
	key     string // the key as typed: memory only, never stored or put in the address
	note    string // the outcome of the last Reset
}

func newModeBanner(a *catalog.API) *modeBanner { return &modeBanner{API: a} }

// Render implements app.Composer.
func (b *modeBanner) Render() app.UI {
	if !ui.StaticMode() {
		return app.Div().Hidden(true)
	}
	var slug string
	if b.API != nil {
		slug = b.API.Slug
	}
	_, real := fetch.RealAPIOf(slug)
	text := "static: sandbox in your browser"
	if real {
		text = "static: real API, your key stays in this tab"
	}
	body := []app.UI{app.Strong().Text(text)}
	if !real {
		body = append(body, app.Span().Class("mode-hint").Text("· no server; what you create lasts until you reload"))
		if b.API != nil {
			body = append(body, app.Button().ID("reset-api").Class("btn btn-quiet").Text("Reset "+b.API.Title).OnClick(b.onReset(slug)))
		}
		body = append(body, app.Button().ID("reset-all").Class("btn btn-quiet").Text("Reset all").OnClick(b.onReset("")))
	}
	if b.note != "" {
		body = append(body, app.Span().Class("mode-note").Role("status").Text(b.note))
	}
	if b.API != nil && len(b.API.Servers) > 0 {
		body = append(body, b.renderReal(real))
	}
	return app.Div().ID("mode-banner").Class("mode-banner").Body(body...)
}

// renderReal is the form that points this API at its real server with a key.
func (b *modeBanner) renderReal(real bool) app.UI {
	if real {
		return app.Button().ID("use-sandbox").Class("btn btn-quiet").Text("Back to the sandbox").OnClick(b.onUseSandbox)
	}
	base := b.baseURL
	if base == "" {
		base = b.API.Servers[0]
	}
	return app.Details().Class("mode-real").Body(
		app.Summary().Text("Use the real API"),
		app.Label().For("real-base").Text("Server"),
		app.Input().ID("real-base").Type("url").Value(base).OnChange(b.onBase),
		app.Label().For("real-key").Text("Key ("+authHint(authOf(b.API))+")"),
		app.Input().ID("real-key").Type("password").AutoComplete(false).OnChange(b.onKey),
		app.Button().ID("use-real").Class("btn").Text("Use the real API").OnClick(b.onUseReal),
		app.P().Class("mode-hint").Text("The key stays in this tab's memory: never in storage, the address or a link. "+
			"The browser calls the API directly, so the API must allow this site's origin (CORS)."),
	)
}

func (b *modeBanner) onBase(ctx app.Context, e app.Event) {
	b.baseURL = strings.TrimSpace(ctx.JSSrc().Get("value").String())
}

func (b *modeBanner) onKey(ctx app.Context, e app.Event) {
	b.key = strings.TrimSpace(ctx.JSSrc().Get("value").String())
}

func (b *modeBanner) onUseReal(ctx app.Context, e app.Event) {
	base := b.baseURL
	if base == "" {
		base = b.API.Servers[0]
	}
	auth := authOf(b.API)
	key := b.key
	if auth.Prefix == "Basic " && strings.Contains(key, ":") {
		key = base64.StdEncoding.EncodeToString([]byte(key))
	}
	fetch.UseRealAPI(b.API.Slug, &fetch.RealAPI{BaseURL: base, Key: key, Auth: auth})
	b.note = ""
	ctx.NewAction(ui.APIModeAction)
}

func (b *modeBanner) onUseSandbox(ctx app.Context, e app.Event) {
	b.key = "" // forgotten: "Use the real API" again with an empty field sends no old key
	fetch.UseRealAPI(b.API.Slug, nil)
	ctx.NewAction(ui.APIModeAction)
}

// onReset puts one API's sandbox (or every one, slug "") back to its seeded state.
func (b *modeBanner) onReset(slug string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if err := fetch.ResetSandbox(slug); err != nil {
			b.note = "Reset failed: " + err.Error()
			return
		}
		if slug == "" {
			b.note = "Every sandbox is back to its seeded data."
		} else {
			b.note = b.API.Title + " is back to its seeded data."
		}
	}
}

// authOf is how a key is sent to a, from its first security scheme.
func authOf(a *catalog.API) fetch.Auth {
	for _, s := range a.Security {
		switch {
		case s.Type == "apiKey" && (s.In == "header" || s.In == "query"):
			return fetch.Auth{In: s.In, Name: s.ParamName}
		case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
			return fetch.Auth{In: "header", Name: "Authorization", Prefix: "Basic "}
		case s.Type == "http", s.Type == "oauth2", s.Type == "openIdConnect":
			return fetch.Auth{In: "header", Name: "Authorization", Prefix: "Bearer "}
		}
	}
	return fetch.Auth{}
}

// authHint tells the user where the key goes.
func authHint(a fetch.Auth) string {
	switch {
	case a.In == "query":
		return "sent as ?" + a.Name + "="
	case a.Prefix == "Basic ":
		return "user:password, sent as Authorization: Basic"
	case a.In == "header" && a.Prefix != "":
		return "sent as " + a.Name + ": " + strings.TrimSpace(a.Prefix) + " …"
	case a.In == "header":
		return "sent as the whole " + a.Name + " header value"
	}
	return "this API takes none"
}
