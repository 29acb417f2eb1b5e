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
		cards = append(cards, app.Li().Class("api-card").Body(
			app.H2().Body(app.A().Href(ui.Href("/"+a.Slug)).Text(a.Title)),
			app.P().Class("api-card-summary").Text(a.Summary),
			app.P().Class("api-card-meta").Body(
				app.Span().Text(ui.Plural(len(a.Operations), "operation", "operations")),
				app.Span().Class("dot").Text("·"),
				app.Code().Text("/proxy/"+a.Slug),
				app.Span().Class("dot").Text("·"),
				app.Span().Text(versionLabel(a.Version)),
			),
			app.Div().Class("api-card-methods").Body(methods...),
		))
	}
	body := []app.UI{
		app.Header().Class("page-head").Body(
			app.H1().Text("Loupe"),
			app.P().Class("lede").Text(fmt.Sprintf(
				"Try %d operations of %d APIs from the browser. Every request goes through Loupe's server, which holds the credentials; by default it answers from built-in sandboxes, so nothing here needs an account.",
				p.Cat.Count(), len(p.Cat.APIs))),
			app.Ul().Class("hints").Body(
				app.Li().Body(app.Kbd().Text("/"), app.Text(" filters operations")),
				app.Li().Body(app.Kbd().Text("Ctrl"), app.Text("+"), app.Kbd().Text("Enter"), app.Text(" sends a request")),
				app.Li().Text("Every filled form is a link: copy it to share the exact request, never a credential."),
			),
		),
		app.Ul().Class("api-cards").Body(cards...),
	}
	for _, section := range ui.OverviewSections() {
		body = append(body, section(p.Cat))
	}
	return app.Div().Class("page overview").Body(body...)
}
