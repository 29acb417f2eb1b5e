package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/ui"
)

// renderMenuButton renders the button that shows and hides the list of APIs and operations on
// a narrow screen (a phone); on a wide screen the list is always shown and the button hidden.
func (s *shell) renderMenuButton() app.UI {
	label := "Show operations"
	if s.menuOpen {
		label = "Hide operations"
	}
	return app.Button().ID("menu-button").Type("button").Class("btn menu-button").
		Aria("expanded", ui.BoolText(s.menuOpen)).Aria("controls", "side-menu").
		Text(label).OnClick(s.onMenu)
}

// onMenu shows or hides the list of operations.
func (s *shell) onMenu(ctx app.Context, e app.Event) { s.menuOpen = !s.menuOpen }

// sideClass is the sidebar's class: menu-open while the list is shown on a narrow screen.
func (s *shell) sideClass() string {
	if s.menuOpen {
		return "menu-open"
	}
	return ""
}
