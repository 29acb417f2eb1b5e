package walkthrough

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/op"
	"loupe/app/ui"
)

// walkthroughPage runs a walkthrough (a document of the catalog, or one opened in the browser:
// File) through the service's run protocol: the workflow to run (a picker when the document
// has several), its inputs as a form, then each step of its outline as the service reaches it,
// the next request as its operation's own form (what it shows is what is sent), each answer in
// the operation's response panel, each criterion with why it held or failed, the retries and
// gotos taken; Run step, Run the rest, Run all, Stop and Start again. Progress lives in the URL
// fragment (see fragmentText), so a half-done walkthrough is a link.
type walkthroughPage struct {
	app.Compo

	// Walk is the walkthrough; Cat the catalog its steps' operations are found in.
	Walk *catalog.Walkthrough
	Cat  *catalog.Catalog
	// File is the document the run posts with each request, for a walkthrough that is not in
	// the catalog; nil for one that is.
	File *ui.WalkFile
	// Alias is the id the page was opened by when it is not Walk's own (an id the walkthrough
	// had before a rename): once mounted, the page's address becomes its own.
	Alias string

	requestRunner

	target   string // the walkthrough (and document) the state belongs to
	fragment string // the fragment last read or written
	notice   string
	workflow string // the workflow picked; "" for the first
	inputs   map[string]string
	run      walkRun
	rest     bool   // Run the rest (or Run all) is under way: each answer sends the next request
	blocked  string // why Run step did not send: the fields to fix
	stopped  bool   // blocked only says the user pressed Stop: no failure, so not in the error colour
}

// requestRunner is embedded in walkthroughPage under this unexported name: go-app copies a
// component's exported fields when its parent renders it again, which would reset the runner.
type requestRunner = op.RequestRunner

func newWalkthroughPage(w *catalog.Walkthrough, cat *catalog.Catalog, file *ui.WalkFile) *walkthroughPage {
	return &walkthroughPage{Walk: w, Cat: cat, File: file}
}

// OnInit prepares the state, so the prerendered page shows the outline.
func (p *walkthroughPage) OnInit() { p.sync(nil) }

// OnMount restores the progress from the fragment and prepares the first request; opened by
// an alias, it puts its own address in the URL.
func (p *walkthroughPage) OnMount(ctx app.Context) {
	if p.Alias != "" && app.IsClient {
		h := app.Window().Get("history")
		h.Call("replaceState", h.Get("state"), "", ui.Href("/walkthroughs/"+p.Walk.ID)+op.CurrentFragment())
	}
	p.sync(&ctx)
}

// OnNav restores the progress when the URL changes.
func (p *walkthroughPage) OnNav(ctx app.Context) { p.sync(&ctx) }

// OnUpdate resets the page when another walkthrough is shown in it.
func (p *walkthroughPage) OnUpdate(ctx app.Context) { p.sync(&ctx) }

// OnDismount abandons a request in flight.
func (p *walkthroughPage) OnDismount() { p.Stop() }

// identity names the walkthrough and document the page's state belongs to.
func (p *walkthroughPage) identity() string {
	if p.File != nil {
		return p.Walk.ID + "\x00" + p.File.Name + "\x00" + p.File.Text
	}
	return p.Walk.ID
}

func (p *walkthroughPage) sync(ctx *app.Context) {
	if id := p.identity(); p.target != id {
		p.Stop()
		p.Forget()
		p.target, p.fragment, p.notice, p.rest, p.blocked = id, "\x00", "", false, ""
		p.workflow, p.inputs, p.run = "", map[string]string{}, walkRun{}
	}
	frag := op.CurrentFragment()
	if frag == p.fragment || ctx == nil {
		return
	}
	p.Forget()
	p.Stop()
	p.fragment, p.rest, p.blocked = frag, false, ""
	p.run = walkRun{}
	var state []byte
	p.notice, state = p.readFragment(frag)
	if len(state) > 0 {
		p.resume(*ctx, state)
		return
	}
	p.start(*ctx, false)
}

// workflowOf is the workflow picked.
func (p *walkthroughPage) workflowOf() *catalog.WalkWorkflow {
	if wf := p.Walk.Workflow(p.workflow); wf != nil {
		return wf
	}
	return p.Walk.Workflow("")
}

// writeFragment puts the progress in the URL without adding a history entry.
func (p *walkthroughPage) writeFragment() {
	p.fragment = p.fragmentText()
	if app.IsClient {
		h := app.Window().Get("history")
		h.Call("replaceState", h.Get("state"), "", p.fragment)
	}
}

// Render implements app.Composer.
func (p *walkthroughPage) Render() app.UI {
	w := p.Walk
	wf := p.workflowOf()
	var outlines []app.UI
	if wf != nil {
		order := runOrder(w, wf.ID)
		for _, f := range order {
			outlines = append(outlines, p.renderOutline(f, f.ID != wf.ID))
		}
	}
	crumbs := []app.UI{app.A().Href(ui.Href("/")).Text("APIs"), app.Text(" / ")}
	if a := p.Cat.API(w.API); a != nil && p.File == nil {
		crumbs = append(crumbs, app.A().Href(ui.Href("/"+a.Slug)).Text(a.Title), app.Text(" / walkthrough"))
	} else {
		crumbs = append(crumbs, app.Text("walkthrough file "), app.Code().Text(p.fileName()))
	}
	return app.Article().Class("page walk-page").DataSet("walk", w.ID).Body(
		app.Header().Class("page-head").Body(
			app.P().Class("crumbs").Body(crumbs...),
			app.H1().Text(w.Title),
			app.If(w.Summary != "", func() app.UI { return app.P().Class("lede").Text(w.Summary) }),
		),
		app.If(p.notice != "", func() app.UI { return app.P().ID("walk-notice").Class("notice").Role("status").Text(p.notice) }),
		ui.HTML("prose", w.DescriptionHTML),
		p.renderDocumentLink(),
		p.renderWorkflowPicker(),
		p.renderInputs(),
		p.renderActions(),
		app.If(p.run.err != "", func() app.UI {
			return app.P().ID("walk-error").Class("field-error walk-error").Role("alert").Text(p.run.err)
		}),
		app.Div().Class("walk-outlines").Body(outlines...),
		p.renderOutcome(),
	)
}

// fileName is the name of the document the page runs.
func (p *walkthroughPage) fileName() string {
	if p.File != nil && p.File.Name != "" {
		return p.File.Name
	}
	return p.Walk.ID + ".arazzo.yaml"
}

// renderDocumentLink links the document itself, to download, edit and share.
func (p *walkthroughPage) renderDocumentLink() app.UI {
	if p.Walk.Document == "" {
		return nil
	}
	name := p.Walk.Document[strings.LastIndex(p.Walk.Document, "/")+1:]
	return app.P().Class("walk-document muted").Body(
		app.Text("Standard Arazzo: "),
		app.A().ID("walk-document").Href(ui.Href(p.Walk.Document)).Attr("download", name).Text(name),
		app.Text(" runs in other Arazzo runners too, and with "),
		app.Code().Text("loupe walk "+p.Walk.ID),
		app.Text("."),
	)
}

// renderActions renders the run's buttons and its status line.
func (p *walkthroughPage) renderActions() app.UI {
	over := p.run.finished
	idle := p.Sending || over
	return app.Div().Class("form-actions walk-actions").Body(
		app.Button().ID("walk-run-step").Class("btn btn-primary").Disabled(idle).Text("Run step").
			Title("Send the next request, judge its answer, and stop").OnClick(p.onRunStep),
		app.Button().ID("walk-run-rest").Class("btn").Disabled(idle).Text("Run the rest").
			Title("Send the requests from the next one to the end").OnClick(p.onRunRest),
		app.Button().ID("walk-run-all").Class("btn").Disabled(p.Sending).Text("Run all").
			Title("Start again and run every step to the end").OnClick(p.onRunAll),
		app.Button().ID("walk-stop").Class("btn").Disabled(!p.Sending).Text("Stop").OnClick(p.onStop),
		app.Button().ID("walk-restart").Class("btn btn-quiet").Disabled(p.Sending).Text("Start again").OnClick(p.onRestart),
		app.Span().ID("walk-status").Class("form-status"+p.statusClass()).Aria("live", "polite").Text(p.statusText()),
	)
}

// statusText says where the run is.
func (p *walkthroughPage) statusText() string {
	r := &p.run
	switch {
	case p.Sending && r.waiting > 0 && r.call != nil:
		return "Waiting " + seconds(r.waiting) + " before " + r.call.Step + " runs again…"
	case p.Sending && r.call != nil:
		return "Running " + r.call.Step + "…"
	case p.Sending:
		return "Starting…"
	case r.finished && r.ok:
		for _, e := range r.events {
			if !e.res.OK {
				return "Done: the workflow succeeded, after the retries and gotos below."
			}
		}
		return "Done: every step passed."
	case r.finished:
		for _, e := range r.events {
			if !e.res.OK {
				return "Stopped: a step failed."
			}
		}
		return "Stopped: " + r.reason
	case p.blocked != "":
		return p.blocked
	case r.err != "":
		return "The run cannot go on: see the message above."
	case !r.started && p.missingInput() != "":
		return "Fill in the input " + p.missingInput() + " above: the first request is made from it."
	case r.call != nil:
		where := "step " + r.call.Step
		if r.call.Depth > 0 {
			where += " of workflow " + r.call.Workflow
		}
		if r.call.Attempt > 1 {
			where += ", attempt " + ui.Itoa(r.call.Attempt)
		}
		return "Next: " + where + "."
	}
	return ""
}

// statusClass colours the run's status as the operation page colours its own: the error colour
// only for a failure (a step that failed the run, a request or input that cannot be sent, a run
// that cannot go on), the success colour once the workflow succeeded, none while it runs, waits
// or was stopped.
func (p *walkthroughPage) statusClass() string {
	r := &p.run
	switch {
	case p.Sending:
		return ""
	case r.finished && r.ok:
		return " is-ok"
	case r.finished:
		return " is-error"
	case p.blocked != "" && !p.stopped:
		return " is-error"
	case r.err != "":
		return " is-error"
	}
	return ""
}
