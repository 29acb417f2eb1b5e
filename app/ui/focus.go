package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// RevealPreview scrolls the HTML preview opened by a code block's Preview button into view;
// the page's scroll-padding keeps it clear of the chat's sticky composer.
func RevealPreview(btn app.Value) {
	block := btn.Call("closest", ".code-block")
	if !block.Truthy() {
		return
	}
	if pv := block.Call("querySelector", ".html-preview"); pv.Truthy() {
		opts := app.Window().Get("Object").New()
		opts.Set("block", "nearest")
		pv.Call("scrollIntoView", opts)
	}
}

// FocusByID moves keyboard focus to the element with the given id, when there is one.
func FocusByID(id string) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Call("focus")
	}
}
