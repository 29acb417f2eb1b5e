package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// shell is the page layout: the sidebar of APIs and the main pane.
type shell struct {
	app.Compo
}

func newShell() *shell { return &shell{} }

// Render implements app.Composer.
func (s *shell) Render() app.UI {
	var items []app.UI
	if serverCatalog != nil {
		for _, a := range serverCatalog.APIs {
			items = append(items, app.Li().Body(app.A().Href("/"+a.Slug).Text(a.Title)))
		}
	}
	return app.Div().ID("layout").Body(
		app.Nav().ID("side").Body(app.H1().Text("Loupe"), app.Ul().Body(items...)),
		app.Main().ID("main").Body(app.P().Text("Pick an API.")),
	)
}
