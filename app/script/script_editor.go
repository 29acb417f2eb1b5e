package script

import (
	htmlpkg "html"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/textedit"
	"loupe/app/ui"
)

// This file renders the workspace's code editor: the file's text in a plain textarea (the
// browser's own editing, undo and accessibility, and the editing keys of app/ui), laid over
// the same text highlighted, with line numbers in a gutter. Both wrap long lines alike and the
// textarea grows with its text (CSS field-sizing), so the two layers never scroll apart; a
// browser without field-sizing gets the plain textarea. The highlighting is app/textedit's (a
// small tokenizer, tested natively): no JavaScript editor is loaded.

// renderCode renders the editor of file f; errLine (1-based, 0 for none) marks a line with a
// syntax error.
func (w *scriptWorkspace) renderCode(f wsFile, errLine int, describedBy string) app.UI {
	rows := min(max(strings.Count(f.Source, "\n")+2, 10), 30)
	return app.Div().Class("code-area").Body(
		app.Raw(highlighted(f, errLine)),
		app.Textarea().ID("ws-editor").Class("input mono code-editor code-input").Rows(rows).Spellcheck(false).
			Attr("autocapitalize", "off").Attr("autocorrect", "off").Attr("wrap", "soft").
			Attr("value", f.Source).Text(f.Source).OnInput(w.onEdit).
			Aria("invalid", ui.BoolAttr(errLine > 0)).Aria("describedby", describedBy),
	)
}

// highlighted is the file's text as the layer under the textarea: one block per line (the
// gutter numbers them with a CSS counter), each token in a span of its kind, the line of a
// syntax error marked. It is HTML built here, escaped, so that a keystroke changes one node.
func highlighted(f wsFile, errLine int) string {
	var toks []textedit.Token
	switch f.Type {
	case "SERVER_JS":
		toks = textedit.HighlightJS(f.Source)
	case "HTML":
		toks = textedit.HighlightHTML(f.Source)
	default:
		toks = []textedit.Token{{Kind: textedit.Plain, Text: f.Source}}
	}
	var b strings.Builder
	b.WriteString(`<div class="code-hl mono" aria-hidden="true">`)
	line := 1
	open := func() {
		if line == errLine {
			b.WriteString(`<span class="cl cl-err">`)
		} else {
			b.WriteString(`<span class="cl">`)
		}
	}
	open()
	for _, t := range toks {
		parts := strings.Split(t.Text, "\n")
		for i, p := range parts {
			if i > 0 {
				b.WriteString("</span>")
				line++
				open()
			}
			if p == "" {
				continue
			}
			if cls := tokenClass[t.Kind]; cls != "" {
				b.WriteString(`<span class="` + cls + `">` + htmlpkg.EscapeString(p) + `</span>`)
			} else {
				b.WriteString(htmlpkg.EscapeString(p))
			}
		}
	}
	b.WriteString("</span></div>")
	return b.String()
}

// tokenClass is the class of each kind of token; web/loupe.css colours them.
var tokenClass = map[textedit.Kind]string{
	textedit.Keyword: "tk-kw", textedit.Literal: "tk-lit", textedit.String: "tk-str", textedit.Number: "tk-num",
	textedit.Comment: "tk-com", textedit.Regexp: "tk-re", textedit.Tag: "tk-tag", textedit.Attr: "tk-attr",
}

// syntaxProblem is a syntax error as the editor shows it, once and in words: "syntax error on
// line 2 of Code: Unexpected token ;", from the message Loupe's check or the API's refusal
// gives ("Syntax error: SyntaxError: Unexpected token ; line: 2 file: Code"); file "" leaves
// the file out (the editor shows it).
func syntaxProblem(msg string, line int, file string) string {
	text := msg
	if i := strings.Index(text, " line: "); i >= 0 {
		text = text[:i]
	}
	for _, p := range []string{"Syntax error:", "SyntaxError:"} {
		text = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), p))
	}
	where := "syntax error"
	if line > 0 {
		where += " on line " + ui.Itoa(line)
		if file != "" {
			where += " of " + file
		}
	}
	return where + ": " + text
}

// renderProblems shows what is wrong with file f, once: the syntax error Loupe's check found
// as it was typed, or, after Save, why the API refused the files (the same error, said as
// "Not saved", or another reason), each with a link to its line.
func (w *scriptWorkspace) renderProblems(f wsFile) app.UI {
	lint, linted := w.lintOf(f.Name)
	saved := w.saveErr != "" // the last Save was refused
	sameAsSave := saved && w.errLine > 0 && linted && w.errFile == lint.file && w.errLine == lint.line
	return app.Div().Body(
		app.Div().ID("ws-lint").Class("field-error").Body(
			app.If(linted && !sameAsSave, func() app.UI {
				return app.P().Body(app.Text(capitalize(syntaxProblem(lint.message, lint.line, ""))+" "),
					app.Button().ID("ws-lint-line").Type("button").Class("btn-link").
						Text("Go to line "+ui.Itoa(lint.line)).OnClick(w.onLintLine))
			}),
		),
		app.Div().ID("ws-save-error").Class("field-error").Role("alert").Body(
			app.If(saved, func() app.UI {
				msg := w.saveErr
				if w.errLine > 0 {
					msg = syntaxProblem(w.saveErr, w.errLine, w.errFile)
				}
				return app.P().Body(app.Strong().Text("Not saved: "), app.Text(msg+" "),
					app.If(w.errLine > 0, func() app.UI {
						return app.Button().ID("ws-error-line").Type("button").Class("btn-link").
							Text("Go to line " + ui.Itoa(w.errLine)).OnClick(w.onErrorLine)
					}))
			}),
		),
	)
}

// capitalize writes s with a capital first letter.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
