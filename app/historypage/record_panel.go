package historypage

import (
	"context"
	"net/url"
	"sort"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/history"
	"loupe/app/op"
	"loupe/app/ui"
)

// This file holds "Save as walkthrough": the requests picked in the history, in the order they
// were sent, are written by Loupe's recorder (POST /walkthroughs/record: the server, or in the
// static explorer the sandbox module) as an Arazzo document whose later requests take the
// values earlier answers gave as runtime expressions, ready to download, or to run here.

// recorder is the history page's "Save as walkthrough" state.
type recorder struct {
	picked  map[string]bool // by entryKey
	title   string
	saving  bool
	err     string
	doc     *catalog.WalkRecordAnswer
	unkept  int // picked requests whose answers the tab did not keep
	skipped []string
}

// entryKey names an entry for picking: its id, or its time for an entry stored without one.
func entryKey(e history.Entry) string {
	if e.ID != "" {
		return e.ID
	}
	return "t" + strconv.FormatInt(e.Time, 10)
}

// pickedEntries returns the entries picked, the oldest first: the order they run in.
func (h *historyPage) pickedEntries() []history.Entry {
	var out []history.Entry
	for _, e := range h.entries {
		if h.rec.picked[entryKey(e)] {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time < out[j].Time })
	return out
}

func (h *historyPage) onPick(ctx app.Context, e app.Event) {
	key := ctx.JSSrc().Get("dataset").Get("key").String()
	if h.rec.picked == nil {
		h.rec.picked = map[string]bool{}
	}
	h.rec.picked[key] = ctx.JSSrc().Get("checked").Bool()
	h.rec.err = ""
}

func (h *historyPage) onRecordTitle(ctx app.Context, e app.Event) {
	h.rec.title = ctx.JSSrc().Get("value").String()
}

// onSave records the picked requests.
func (h *historyPage) onSave(ctx app.Context, e app.Event) {
	e.PreventDefault()
	picked := h.pickedEntries()
	if len(picked) == 0 || h.rec.saving {
		h.rec.err = "Pick the requests to record first: tick them in the list, in any order (they run in the order they were sent)."
		return
	}
	req := catalog.WalkRecordRequest{Title: h.rec.title, Origin: ui.Origin()}
	h.rec.unkept, h.rec.skipped, h.rec.err, h.rec.doc = 0, nil, "", nil
	for _, en := range picked {
		api := h.Cat.API(en.API)
		var operation *catalog.Operation
		if api != nil {
			operation = api.Operation(en.Op)
		}
		if operation == nil {
			h.rec.skipped = append(h.rec.skipped, en.Method+" "+en.URL+": its operation is no longer in this Loupe")
			continue
		}
		answer := op.KeptAnswer(en.ID)
		ex, err := history.Exchange(api, operation, en, answer)
		if err != nil {
			h.rec.skipped = append(h.rec.skipped, err.Error())
			continue
		}
		if answer == nil {
			h.rec.unkept++
		}
		req.Exchanges = append(req.Exchanges, ex)
	}
	if len(req.Exchanges) == 0 {
		h.rec.err = "None of the requests picked can be recorded."
		return
	}
	h.rec.saving = true
	ctx.Async(func() {
		cctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var ans catalog.WalkRecordAnswer
		err := ui.PostJSON(cctx, "/walkthroughs/record", req, &ans)
		ctx.Dispatch(func(ctx app.Context) {
			h.rec.saving = false
			switch {
			case err != nil:
				h.rec.err = err.Error()
			case ans.Error != "":
				h.rec.err = ans.Error
			default:
				h.rec.doc = &ans
				ctx.Defer(func(app.Context) { ui.FocusByID("history-record-result") })
			}
		})
	})
}

// onRun opens the recorded walkthrough in the runner.
func (h *historyPage) onRun(ctx app.Context, e app.Event) {
	d := h.rec.doc
	if d == nil {
		return
	}
	if !ui.SaveWalkFile(ui.WalkFile{Name: d.Name, Text: d.Document}) {
		h.rec.err = "This browser would not keep the walkthrough for the runner (its storage is full or off): download it and open it there."
		return
	}
	ctx.Navigate(ui.Href(ui.WalkFilePath))
}

// renderRecorder renders the picking's summary, the title and Save as walkthrough, then the
// document recorded.
func (h *historyPage) renderRecorder() app.UI {
	n := len(h.pickedEntries())
	r := &h.rec
	var notes []app.UI
	for _, s := range r.skipped {
		notes = append(notes, app.Li().Text("Left out: "+s))
	}
	if r.unkept > 0 {
		notes = append(notes, app.Li().Text(ui.Plural(r.unkept, "request was", "requests were")+
			" sent in another tab or an earlier session, or answered too much to keep: the steps after it take no value from its answer."))
	}
	return app.Section().ID("history-record").Class("history-record").Aria("label", "Save as walkthrough").Body(
		app.Form().Class("history-record-form").OnSubmit(h.onSave).Body(
			app.P().ID("history-picked").Class("muted").Aria("live", "polite").Text(pickedText(n)),
			app.Label().For("history-record-title").Class("field-name").Text("Title"),
			app.Input().ID("history-record-title").Class("input").Type("text").Placeholder("Recorded walkthrough").Value(r.title).OnInput(h.onRecordTitle),
			app.Button().ID("history-record-save").Type("submit").Class("btn btn-primary").Disabled(n == 0 || r.saving).Text("Save as walkthrough"),
		),
		app.If(r.err != "", func() app.UI {
			return app.P().ID("history-record-error").Class("field-error").Role("alert").Text(r.err)
		}),
		app.If(len(notes) > 0, func() app.UI { return app.Ul().Class("history-record-notes muted").Body(notes...) }),
		app.If(r.doc != nil, func() app.UI { return h.renderRecorded() }),
	)
}

func pickedText(n int) string {
	if n == 0 {
		return "Tick requests to save them as a walkthrough: Loupe writes an Arazzo document that sends them again in the order they were sent, carrying the values each answer gave into the requests after it."
	}
	return ui.Plural(n, "request", "requests") + " picked, to run in the order they were sent."
}

// renderRecorded shows the document recorded, with its download and Run it.
func (h *historyPage) renderRecorded() app.UI {
	d := h.rec.doc
	steps := 0
	if d.Walkthrough != nil && len(d.Walkthrough.Workflows) > 0 {
		steps = len(d.Walkthrough.Workflows[0].Steps)
	}
	return app.Div().ID("history-record-result").Class("history-record-result").TabIndex(-1).Body(
		app.H2().Text(d.Name),
		app.P().Class("muted").Body(
			app.Text("Standard Arazzo, checked by the loader every walkthrough goes through: "+ui.Plural(steps, "step", "steps")+
				". Download it to edit and share; run it here, with "),
			app.Code().Text("loupe walk "+d.Name),
			app.Text(", or with any Arazzo runner (its sources name this server's OpenAPI documents)."),
		),
		app.Div().Class("form-actions").Body(
			app.A().ID("history-record-download").Class("btn").Href("data:application/yaml;charset=utf-8,"+url.PathEscape(d.Document)).
				Attr("download", d.Name).Text("Download "+d.Name),
			app.Button().ID("history-record-run").Type("button").Class("btn btn-primary").Text("Run it").OnClick(h.onRun),
		),
		// It scrolls: focusable, so that the keyboard scrolls it too.
		app.Pre().ID("history-record-doc").Class("mono history-record-doc").TabIndex(0).Aria("label", "The document "+d.Name).Text(d.Document),
	)
}
