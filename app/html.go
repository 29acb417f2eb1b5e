package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// html renders sanitized HTML from the catalog in one wrapper div (app.Raw keeps only one root).
func html(class, s string) app.UI {
	if s == "" {
		return nil
	}
	return app.Raw(`<div class="` + class + `">` + s + `</div>`)
}

// methodBadge renders an HTTP method as a colored badge.
func methodBadge(method string) app.UI {
	return app.Span().Class("method method-" + strings.ToLower(method)).Text(method)
}

// notFound renders the main pane of an unknown route.
func notFound(msg string) app.UI {
	return app.Div().Class("page-error").Body(
		app.H1().Text("Not found"),
		app.P().Text(msg),
		app.P().Body(app.A().Href(href("/")).Text("See every API")),
	)
}
