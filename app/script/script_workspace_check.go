package script

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/fetch"
)

// This file holds the script workspace's syntax check: a moment after the last edit of a
// server file, Loupe's own check (/tools/script/syntax, the parser the sandbox's
// updateContent uses) says whether the file parses, so a syntax error is marked at its line
// before anything is saved.

// syntaxCheckDelay is how long the workspace waits after the last keystroke before checking.
const syntaxCheckDelay = 400 * time.Millisecond

// syntaxCheckURL is Loupe's syntax check of one server file.
const syntaxCheckURL = "/tools/script/syntax"

// wsLint is the result of the last syntax check of one file.
type wsLint struct {
	file    string // the file checked
	line    int    // 1-based; 0 when the file parses
	message string // updateContent's message for the error
}

// scheduleCheck checks the file in the editor once the user stops typing for a moment. An
// edit made meanwhile supersedes the check (lintSeq).
func (w *scriptWorkspace) scheduleCheck(ctx app.Context) {
	w.lintSeq++
	if w.current >= len(w.files) || w.files[w.current].Type != "SERVER_JS" {
		return
	}
	seq, f := w.lintSeq, w.files[w.current]
	ctx.After(syntaxCheckDelay, func(ctx app.Context) {
		if seq != w.lintSeq {
			return
		}
		ctx.Async(func() {
			lint, ok := checkScriptSyntax(f.Name, f.Source)
			ctx.Dispatch(func(ctx app.Context) {
				if ok && seq == w.lintSeq {
					w.lint = lint
				}
			})
		})
	})
}

// checkScriptSyntax asks Loupe's syntax check about one file. It blocks: call it in
// ctx.Async. ok is false when the check could not be made (then nothing is marked; Save
// still reports what the API says).
func checkScriptSyntax(name, source string) (lint wsLint, ok bool) {
	body, err := json.Marshal(map[string]string{"name": name, "source": source})
	if err != nil {
		return wsLint{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := fetch.Do(ctx, fetch.Request{Method: "POST", URL: syntaxCheckURL, Body: body,
		Headers: []fetch.Header{{Name: "Content-Type", Value: "application/json"}}})
	if err != nil {
		return wsLint{}, false
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil || res.Status != 200 {
		return wsLint{}, false
	}
	var out struct {
		Problem *struct {
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"problem"`
	}
	if json.Unmarshal(data, &out) != nil {
		return wsLint{}, false
	}
	lint = wsLint{file: name}
	if out.Problem != nil {
		lint.line, lint.message = out.Problem.Line, out.Problem.Message
	}
	return lint, true
}

// lintOf returns the syntax error found in the file named name, if the last check found one.
func (w *scriptWorkspace) lintOf(name string) (wsLint, bool) {
	if w.lint.file == name && w.lint.line > 0 {
		return w.lint, true
	}
	return wsLint{}, false
}

// onLintLine puts the cursor on the line of the syntax error the check found.
func (w *scriptWorkspace) onLintLine(ctx app.Context, e app.Event) {
	for i, f := range w.files {
		if f.Name == w.lint.file && f.Type == "SERVER_JS" {
			w.current = i
			w.moveCursor(ctx, w.lint.line)
		}
	}
}
