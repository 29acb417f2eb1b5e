package script

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// This file holds how the script workspace puts the cursor on a line of the editor: a stack
// frame's link or a refused save's syntax error.

// moveCursor selects line (1-based) in the editor once the next render has shown the file,
// focuses the editor and scrolls the line into view.
func (w *scriptWorkspace) moveCursor(ctx app.Context, line int) {
	if line <= 0 {
		return
	}
	ctx.Defer(func(app.Context) {
		el := app.Window().GetElementByID("ws-editor")
		if !el.Truthy() {
			return
		}
		text := el.Get("value").String()
		start, end := lineSpan(text, line)
		el.Call("focus", map[string]any{"preventScroll": true})
		el.Call("setSelectionRange", start, end)
		// The editor grows with its text, so the page scrolls, not the editor: bring the line's
		// row of the highlighted layer into view (a plain textarea scrolls itself instead).
		rows := app.Window().Get("document").Call("querySelectorAll", ".code-hl .cl")
		if line <= rows.Length() && rows.Index(line-1).Get("offsetParent").Truthy() {
			rows.Index(line-1).Call("scrollIntoView", map[string]any{"block": "center"})
			return
		}
		lh := app.Window().Call("parseFloat", app.Window().Call("getComputedStyle", el).Get("lineHeight")).Float()
		if lh > 0 {
			el.Set("scrollTop", float64(line-3)*lh)
		}
		el.Call("scrollIntoView", map[string]any{"block": "nearest"})
	})
}

// lineSpan returns the offsets (in UTF-16 units, as the textarea counts) of line n's text.
func lineSpan(text string, n int) (start, end int) {
	lines := strings.Split(text, "\n")
	n = min(max(n, 1), len(lines))
	for i := 0; i < n-1; i++ {
		start += utf16Len(lines[i]) + 1
	}
	return start, start + utf16Len(lines[n-1])
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// atoiOr parses a decimal number, or returns def (for "" too).
func atoiOr(s string, def int) int {
	s = strings.TrimSpace(s)
	if s == "" {
		return def
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return def
		}
		n = n*10 + int(c-'0')
	}
	return n
}
