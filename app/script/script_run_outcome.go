package script

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/ui"
)

// This file renders the outcome of the workspace's last run: how it ended and how long it
// took, its result or its error as Apps Script shows one (the message, then a line per stack
// frame, each putting the cursor on its line), the limit that stopped it in words with what to
// do, and what it logged (script_run_words.go holds the words).

// renderOutcome shows the last run, or nothing before the first.
func (w *scriptWorkspace) renderOutcome() app.UI {
	c := w.run
	if c == nil {
		return nil
	}
	var op wsOperation
	decoded := c.decode(&op)
	opp := &op
	if !decoded {
		opp = nil
	}
	limit := runLimit(c.Limit, c.Status, c.Err, opp)
	var body app.UI
	switch {
	case !decoded:
		body = app.Div().ID("ws-error").Role("alert").Body(
			app.P().Class("field-error ws-error-message").Text(c.Err),
			w.renderLimit(limit),
		)
	case op.Error != nil && len(op.Error.Details) > 0:
		body = w.renderError(op, limit)
	case op.Error != nil: // an error without an ExecutionError: its code is all there is
		body = app.Div().ID("ws-error").Role("alert").Body(
			app.P().Class("field-error ws-error-message").Text("The run failed (code "+ui.Itoa(op.Error.Code)+")."),
			w.renderLimit(limit),
		)
	case op.Response != nil && len(op.Response.Result) > 0:
		body = app.Pre().ID("ws-result").Class("mono").Text(string(op.Response.Result))
	default:
		body = app.P().ID("ws-result").Class("muted").Text("The function returned no value.")
	}
	logs := "(nothing logged)"
	if len(c.Logs) > 0 {
		logs = strings.Join(c.Logs, "\n")
	}
	return app.Section().Class("ws-outcome").Aria("label", "Run outcome").Body(
		app.H2().Text("Outcome"),
		app.P().ID("ws-run-summary").Class("ws-run-summary").Text(runSummary(c, decoded && op.Error == nil, limit)),
		body,
		app.H3().Text("Logs"),
		app.Pre().ID("ws-logs").Class("mono").Text(logs),
		app.If(logsCut(c.Logs), func() app.UI {
			return app.P().ID("ws-logs-cut").Class("field-help").Text("The run logged more than the sandbox hands back " +
				"(1,000 lines or 1 MiB a run, 16 KiB to the workspace): the last line says how many were cut. " +
				"Log a summary or fewer lines to see them all.")
		}),
	)
}

// runSummary is the line that says how the run ended and how long it took.
func runSummary(c *scriptCall, succeeded bool, limit string) string {
	var s string
	switch {
	case limit == limitSlots:
		s = "Not run"
	case limit != "":
		s = "Stopped"
	case succeeded:
		s = "Completed"
	case c.Status == 0 || !c.ok():
		s = "Not run"
	default:
		s = "Failed"
	}
	if d := runDuration(c.Duration); d != "" {
		if s == "Stopped" || s == "Failed" {
			s += " after " + d
		} else {
			s += " in " + d
		}
	}
	return s + "."
}

// renderError shows an ExecutionError as Apps Script's execution log does: "TypeError:
// message", then "function @ File.gs:line" per frame, deepest call first; then the limit
// that stopped the run, if one did.
func (w *scriptWorkspace) renderError(op wsOperation, limit string) app.UI {
	d := op.Error.Details[0]
	var frames []app.UI
	for _, f := range d.Frames {
		frames = append(frames, app.Li().Body(app.Button().Type("button").Class("ws-frame btn-link mono").
			DataSet("line", ui.Itoa(f.LineNumber)).DataSet("function", f.Function).OnClick(w.onFrame).
			Text(frameText(f.Function, w.fileOf(f.Function), f.LineNumber))))
	}
	return app.Div().ID("ws-error").Role("alert").Body(
		app.P().Class("ws-error-head mono").Body(
			app.If(d.ErrorType != "", func() app.UI { return app.Strong().Class("ws-error-type").Text(d.ErrorType + ": ") }),
			app.Span().Class("ws-error-message").Text(d.ErrorMessage),
		),
		app.If(len(frames) > 0, func() app.UI {
			return app.Ol().Class("ws-stack").Aria("label", "Stack trace, deepest call first").Body(frames...)
		}),
		w.renderLimit(limit),
	)
}

// renderLimit says which limit stopped the run and what to do; nothing when none did.
func (w *scriptWorkspace) renderLimit(limit string) app.UI {
	if limit == "" {
		return nil
	}
	n := noticeOf(limit)
	return app.Div().ID("ws-limit").Class("ws-limit").DataSet("limit", limit).Body(
		app.P().Body(app.Strong().Text(n.Title+" "), app.Text(n.Why)),
		app.P().Text(n.Advice),
	)
}

// fileOf is the name of the server file that declares function fn, "" when none does.
func (w *scriptWorkspace) fileOf(fn string) string {
	for _, f := range w.files {
		if f.FunctionSet == nil {
			continue
		}
		for _, v := range f.FunctionSet.Values {
			if v.Name == fn {
				return f.Name
			}
		}
	}
	return ""
}
