package op

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// go-app v10 drops an attribute whose new value is empty and calls removeAttribute instead of
// setting the property, so an input the user typed in keeps its old text when the form state
// empties it (Reset, Previous back to page 1, removing a list value, another operation). The form
// therefore renders what each control must show in data-shown (absent when empty: the same
// go-app rule removes a real attribute reliably), and SyncFields makes every control's live value
// match it after the render.

// shownAttr is the data attribute (data-shown) holding what a form control must show.
const shownAttr = "shown"

// SyncFields, after the current render, sets the value (or checked state) of every control of
// the operation form, the walkthrough step form and the body editor to what the form state
// says. The control the current event comes from is left alone: it already shows what the user
// typed.
func SyncFields(ctx app.Context) {
	if !app.IsClient {
		return
	}
	src := ctx.JSSrc()
	ctx.Defer(func(app.Context) {
		doc := app.Window().Get("document")
		els := doc.Call("querySelectorAll", "#op-form input[data-key], #op-form select[data-key], #op-form textarea[data-key], #walk-form input[data-key], #walk-form select[data-key], #walk-form textarea[data-key], #body-editor")
		for i, n := 0, els.Get("length").Int(); i < n; i++ {
			el := els.Call("item", i)
			if src != nil && el.Equal(src) {
				continue
			}
			want := ""
			if v := el.Get("dataset").Get(shownAttr); v.Truthy() {
				want = v.String()
			}
			if el.Get("type").String() == "checkbox" {
				if el.Get("checked").Bool() != (want == "true") {
					el.Set("checked", want == "true")
				}
				continue
			}
			if want == "" && el.Get("tagName").String() == "SELECT" {
				el.Set("selectedIndex", 0) // its first option, "not sent", has no value attribute
				continue
			}
			if el.Get("value").String() != want {
				el.Set("value", want)
			}
		}
	})
}
