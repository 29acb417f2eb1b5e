package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// WriteClipboard copies text and calls done in the UI goroutine once it is copied. The
// asynchronous Clipboard API exists only in secure contexts (https, localhost): on a team
// server reached over plain HTTP, or when the API refuses, a hidden selected textarea and
// document.execCommand("copy") do it, which browsers still allow in a click handler.
func WriteClipboard(ctx app.Context, text string, done func(app.Context)) {
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		if copyBySelection(text) {
			done(ctx)
		}
		return
	}
	var ok, fail app.Func
	release := func() { ok.Release(); fail.Release() }
	ok = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Dispatch(done)
		release()
		return nil
	})
	fail = app.FuncOf(func(app.Value, []app.Value) any {
		if copyBySelection(text) {
			ctx.Dispatch(done)
		}
		release()
		return nil
	})
	clip.Call("writeText", text).Call("then", ok, fail)
}

// copyBySelection copies text through a selected off-screen textarea and puts the focus back.
func copyBySelection(text string) bool {
	doc := app.Window().Get("document")
	active := doc.Get("activeElement")
	ta := doc.Call("createElement", "textarea")
	ta.Set("value", text)
	ta.Call("setAttribute", "readonly", "")
	ta.Call("setAttribute", "aria-hidden", "true")
	ta.Get("style").Set("position", "fixed")
	ta.Get("style").Set("top", "-1000px")
	doc.Get("body").Call("appendChild", ta)
	ta.Call("select")
	copied := doc.Call("execCommand", "copy").Bool()
	ta.Call("remove")
	if active.Truthy() {
		active.Call("focus")
	}
	return copied
}
