package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// notice is the banner (#notice) that says something went differently than the user expected,
// for example that a link's form state could not be used. It never blocks the page.
type notice struct {
	app.Compo

	// Text is the message.
	Text string
	// OnDismiss runs when the user closes the banner.
	OnDismiss app.EventHandler
}

// NewNotice returns a notice saying text, whose close button (Dismiss) calls onDismiss.
func NewNotice(text string, onDismiss app.EventHandler) *notice {
	return &notice{Text: text, OnDismiss: onDismiss}
}

// Render implements app.Composer.
func (n *notice) Render() app.UI {
	return app.Div().ID("notice").Class("notice").Role("status").Body(
		app.Span().Class("notice-icon").Aria("hidden", "true").Text("!"),
		app.P().Text(n.Text),
		app.Button().Type("button").Class("btn-icon").Aria("label", "Dismiss").Title("Dismiss").Text("×").OnClick(n.OnDismiss),
	)
}
