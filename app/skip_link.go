package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// onSkip moves focus to the main pane without following the link: "#main" in the URL would
// replace the fragment that holds the form state. The href stays for the prerendered page.
func (s *shell) onSkip(ctx app.Context, e app.Event) {
	e.PreventDefault()
	e.Call("stopPropagation") // go-app's window click handler would navigate to #main
	focusMain()
}

// focusMain moves keyboard focus to the main pane, so the next Tab reaches its first control.
func focusMain() {
	if m := app.Window().GetElementByID("main"); m.Truthy() {
		m.Call("focus")
	}
}
