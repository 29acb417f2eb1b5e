package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// overviewPage is the home page: what Loupe is and a card for every API.
type overviewPage struct {
	app.Compo

	// Cat is the catalog to present.
	Cat *catalog.Catalog
}

func newOverviewPage(cat *catalog.Catalog) *overviewPage { return &overviewPage{Cat: cat} }

// Render implements app.Composer.
func (p *overviewPage) Render() app.UI {
	var cards []app.UI
	for i := range p.Cat.APIs {
		a := &p.Cat.APIs[i]
		var methods []app.UI
		seen := map[string]bool{}
		for _, op := range a.Operations {
			if !seen[op.Method] {
				seen[op.Method] = true
				methods = append(methods, ui.MethodBadge(op.Method))
			}
		}
		// Where requests go: the server's proxy; in the static explorer no server answers, the
		// sandboxes in the browser do, so the card names none.
		where := app.If(!ui.StaticMode(), func() app.UI {
			return app.Span().Body(app.Span().Class("dot").Text("·"), app.Code().Text("/proxy/"+a.Slug))
		})
		cards = append(cards, app.Li().Class("api-card").Body(
			app.H3().Body(app.A().Href(ui.Href("/"+a.Slug)).Text(a.Title)),
			app.P().Class("api-card-summary").Text(cardSummary(a)),
			app.P().Class("api-card-meta").Body(
				app.Span().Text(ui.Plural(len(a.Operations), "operation", "operations")),
				where,
				app.Span().Class("dot").Text("·"),
				app.Span().Text(versionLabel(a.Version)),
			),
			app.Div().Class("api-card-methods").Body(methods...),
		))
	}
	body := []app.UI{
		app.Header().Class("page-head").Body(
			app.H1().Text("Loupe"),
			app.P().Class("lede").Text(lede(p.Cat)),
			app.Ul().Class("hints").Body(
				app.Li().Body(app.Kbd().Text("/"), app.Text(" filters operations")),
				app.Li().Body(app.Kbd().Text("Ctrl"), app.Text("+"), app.Kbd().Text("Enter"), app.Text(" sends a request")),
				app.Li().Text("Every filled form is a link: copy it to share the exact request, never a credential."),
			),
		),
	}
	// The sections features add (the walkthroughs) come before the APIs' cards, in the first
	// screen, rather than below seven cards.
	for _, section := range ui.OverviewSections() {
		body = append(body, section(p.Cat))
	}
	body = append(body, app.Section().Class("api-cards-section").Aria("label", "APIs").Body(
		app.H2().Text("APIs"),
		app.Ul().Class("api-cards").Body(cards...),
	))
	return app.Div().Class("page overview").Body(body...)
}

// lede says what the overview offers and where its requests go: through Loupe's server, or in
// the static explorer to the sandboxes running in the browser (or an API's real server, with a
// key typed in the tab).
func lede(cat *catalog.Catalog) string {
	if ui.StaticMode() {
		return fmt.Sprintf("Try %d operations of %d APIs in your browser. No server is involved: the built-in sandboxes run in this page "+
			"(loaded on the first Send), so nothing here needs an account; each API can also be pointed at its real server with a key that stays in this tab.",
			cat.Count(), len(cat.APIs))
	}
	return fmt.Sprintf("Try %d operations of %d APIs from the browser. Every request goes through Loupe's server, which holds the credentials; "+
		"by default it answers from built-in sandboxes, so nothing here needs an account.", cat.Count(), len(cat.APIs))
}

// cardSummary is what an API's card says of it: its document's info.summary, else (OpenAPI 3.0
// has no summary) the first sentence of its description.
func cardSummary(a *catalog.API) string {
	if a.Summary != "" {
		return a.Summary
	}
	return ui.FirstSentence(a.DescriptionHTML, 200)
}
