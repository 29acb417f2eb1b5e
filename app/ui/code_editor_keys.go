package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/textedit"
)

// codeEditorClass marks the textareas that take the editing keys of a code editor.
const codeEditorClass = "code-editor"

// OnCodeEditorKey gives a code editor textarea the keys of a code editor: Tab and Shift+Tab
// indent and outdent the selected lines, Enter keeps the indentation, a closing bracket on a
// blank line lines up with the line that opened it. Escape then Tab leaves the editor, so the
// keyboard is never trapped. It reports whether it handled the key.
//
// It runs in the window's keydown listener, synchronously: go-app runs its own event handlers
// later, when preventDefault no longer stops the browser from typing the key. The new text
// reaches the page's state through an input event, as typed text does.
func OnCodeEditorKey(e app.Value) bool {
	el := e.Get("target")
	if !el.Truthy() || el.Get("tagName").String() != "TEXTAREA" || !el.Get("classList").Call("contains", codeEditorClass).Bool() {
		return false
	}
	if e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool() || e.Get("isComposing").Bool() {
		return false
	}
	key, shift := e.Get("key").String(), e.Get("shiftKey").Bool()
	data := el.Get("dataset")
	leave := data.Get("tabLeaves").String() == "1" // dataset values are strings
	if key == "Escape" {
		data.Set("tabLeaves", "1")
	} else {
		data.Set("tabLeaves", "")
	}
	var edit func(textedit.Edit) textedit.Edit
	switch {
	case key == "Tab" && leave:
		return false // the browser moves the focus on
	case key == "Tab" && shift:
		edit = textedit.Outdent
	case key == "Tab":
		edit = textedit.Indent
	case key == "Enter" && !shift:
		edit = textedit.Newline
	case key == "}" || key == "]" || key == ")":
		edit = func(e textedit.Edit) textedit.Edit { return textedit.Close(e, rune(key[0])) }
	default:
		return false
	}
	e.Call("preventDefault")
	out := edit(textedit.Edit{Text: el.Get("value").String(), Start: el.Get("selectionStart").Int(), End: el.Get("selectionEnd").Int()})
	el.Set("value", out.Text)
	el.Call("setSelectionRange", out.Start, out.End)
	el.Call("dispatchEvent", app.Window().Get("Event").New("input", map[string]any{"bubbles": true}))
	return true
}
