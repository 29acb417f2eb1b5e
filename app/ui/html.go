package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// HTML renders sanitized HTML from the catalog in one wrapper div (app.Raw keeps only one root).
func HTML(class, s string) app.UI {
	if s == "" {
		return nil
	}
	return app.Raw(`<div class="` + class + `">` + s + `</div>`)
}

// MethodBadge renders an HTTP method as a colored badge.
func MethodBadge(method string) app.UI {
	return app.Span().Class("method method-" + strings.ToLower(method)).Text(method)
}

// NotFound renders the main pane of an unknown route.
func NotFound(msg string) app.UI {
	return app.Div().Class("page-error").Body(
		app.H1().Text("Not found"),
		app.P().Text(msg),
		app.P().Body(app.A().Href(Href("/")).Text("See every API")),
	)
}
