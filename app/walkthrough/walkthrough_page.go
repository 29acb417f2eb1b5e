package walkthrough

import (
	"encoding/json"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/chatstream"
	"loupe/app/op"
	"loupe/app/request"
	"loupe/app/snippet"
	"loupe/app/ui"
)

func init() {
	ui.AddPage(ui.Page{
		Slug:   "walkthroughs",
		Serves: func(cat *catalog.Catalog, id string) bool { return true },
		Exists: func(cat *catalog.Catalog, id string) bool {
			for _, w := range cat.Walkthroughs {
				if w.ID == id {
					return true
				}
			}
			return false
		},
		Paths: func(cat *catalog.Catalog) []string {
			var paths []string
			for _, w := range cat.Walkthroughs {
				paths = append(paths, "/walkthroughs/"+w.ID)
			}
			return paths
		},
		Render: walkthroughRoute,
	})
	ui.AddAPISection(ui.APISection{Rank: 10, Render: func(cat *catalog.Catalog, a *catalog.API) app.UI { return walkthroughList(cat, a.Slug) }})
	ui.AddOverviewSection(func(cat *catalog.Catalog) app.UI { return walkthroughList(cat, "") })
}

// walkthroughPage runs an onboarding walkthrough step by step: its inputs as a small form, then
// each step as its operation's request, prefilled from earlier steps with each carried value
// marked with where it came from; Run step, Run all and Stop; each answer in the operation's
// response panel, each success criterion passed or failed, and the outputs. Progress lives in
// the URL fragment (see fragmentText), so a half-done walkthrough is a link.
type walkthroughPage struct {
	app.Compo

	// Walk is the walkthrough and API the API it uses.
	Walk *catalog.Walkthrough
	API  *catalog.API

	requestRunner

	target   string // the walkthrough the state belongs to
	fragment string // the fragment last read or written
	notice   string
	inputs   map[string]string
	outputs  map[string]map[string]json.RawMessage
	current  int // index of the step to run; len(Steps) when done
	steps    []walkStepState
	runAll   bool
	blocked  string // why Run step did not run: the fields to fix
}

// requestRunner is embedded in walkthroughPage under this unexported name: go-app copies a
// component's exported fields when its parent renders it again, which would reset the runner.
type requestRunner = op.RequestRunner

// walkStepState is one step's form, answer and judgement.
type walkStepState struct {
	prepared bool
	prepErr  string
	form     op.FormState
	carried  []catalog.WalkParam
	bodyFrom []catalog.WalkParam // the body's carried values, by JSON pointer
	result   *op.Exchange
	stream   *chatstream.Turn // a streamed chat answer, shown as the chat shows it
	answer   *catalog.WalkStepAnswer
	status   string // "", running, passed, failed
}

func newWalkthroughPage(w *catalog.Walkthrough, a *catalog.API) *walkthroughPage {
	return &walkthroughPage{Walk: w, API: a}
}

// OnInit prepares the state, so the prerendered page shows the steps.
func (p *walkthroughPage) OnInit() { p.sync(nil) }

// OnMount restores the progress from the fragment and prepares the current step.
func (p *walkthroughPage) OnMount(ctx app.Context) { p.sync(&ctx) }

// OnNav restores the progress when the URL changes.
func (p *walkthroughPage) OnNav(ctx app.Context) { p.sync(&ctx) }

// OnUpdate resets the page when another walkthrough is shown in it.
func (p *walkthroughPage) OnUpdate(ctx app.Context) { p.sync(&ctx) }

// OnDismount abandons a request in flight.
func (p *walkthroughPage) OnDismount() { p.Stop() }

func (p *walkthroughPage) sync(ctx *app.Context) {
	if p.target != p.Walk.ID {
		p.Stop()
		p.Forget()
		p.target, p.fragment, p.notice, p.runAll, p.blocked = p.Walk.ID, "\x00", "", false, ""
		p.steps = make([]walkStepState, len(p.Walk.Steps))
		p.inputs, p.outputs, p.current = map[string]string{}, nil, 0
	}
	frag := op.CurrentFragment()
	if frag == p.fragment || ctx == nil {
		return
	}
	p.Forget()
	p.Stop()
	p.fragment = frag
	p.steps = make([]walkStepState, len(p.Walk.Steps))
	p.notice = p.readFragment(frag)
	p.prepare(*ctx, p.current, nil)
}

// op returns step i's operation.
func (p *walkthroughPage) op(i int) *catalog.Operation {
	return p.API.Operation(p.Walk.Steps[i].OperationID)
}

// inputValues returns the inputs as typed, defaults left to the server.
func (p *walkthroughPage) inputValues() map[string]string {
	out := map[string]string{}
	for k, v := range p.inputs {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

// writeFragment puts the progress in the URL without adding a history entry.
func (p *walkthroughPage) writeFragment() {
	p.fragment = p.fragmentText()
	if app.IsClient {
		h := app.Window().Get("history")
		h.Call("replaceState", h.Get("state"), "", p.fragment)
	}
}

func (p *walkthroughPage) onInput(ctx app.Context, e app.Event) {
	p.inputs[ctx.JSSrc().Get("dataset").Get("input").String()] = ctx.JSSrc().Get("value").String()
	p.writeFragment()
	if p.current < len(p.Walk.Steps) {
		p.Forget()
		p.prepare(ctx, p.current, nil)
	}
}

func (p *walkthroughPage) onRunStep(ctx app.Context, e app.Event) {
	p.runAll = false
	p.runStep(ctx)
}

func (p *walkthroughPage) onRunAll(ctx app.Context, e app.Event) {
	p.runAll = true
	p.runStep(ctx)
}

func (p *walkthroughPage) onStop(ctx app.Context, e app.Event) {
	p.runAll = false
	p.stopStream(ctx)
	p.Stop()
}

// onRestart starts the walkthrough again from its first step, keeping the inputs.
func (p *walkthroughPage) onRestart(ctx app.Context, e app.Event) {
	p.Stop()
	p.Forget()
	p.outputs, p.current, p.runAll, p.blocked = nil, 0, false, ""
	p.steps = make([]walkStepState, len(p.Walk.Steps))
	p.writeFragment()
	p.prepare(ctx, 0, nil)
}

// Render implements app.Composer.
func (p *walkthroughPage) Render() app.UI {
	w := p.Walk
	var inputs []app.UI
	for _, in := range w.Inputs {
		id := "walk-input-" + in.Name
		inputs = append(inputs, app.Div().Class("field").Body(
			app.Label().For(id).Class("field-name").Body(app.Span().Class("mono").Text(in.Name),
				app.If(in.Required, func() app.UI { return app.Span().Class("required").Title("required").Text("*") })),
			app.Input().ID(id).Type("text").DataSet("input", in.Name).Value(p.inputs[in.Name]).
				Placeholder(in.Default).Disabled(p.Sending).OnChange(p.onInput),
			app.Div().Class("field-help").Text(in.Description),
		))
	}
	var steps []app.UI
	for i := range w.Steps {
		steps = append(steps, p.renderStep(i))
	}
	done := p.current >= len(w.Steps)
	return app.Article().Class("page walk-page").DataSet("walk", w.ID).Body(
		app.Header().Class("page-head").Body(
			app.P().Class("crumbs").Body(app.A().Href(ui.Href("/")).Text("APIs"), app.Text(" / "),
				app.A().Href(ui.Href("/"+p.API.Slug)).Text(p.API.Title), app.Text(" / walkthrough")),
			app.H1().Text(w.Title),
			app.If(w.Summary != "", func() app.UI { return app.P().Class("lede").Text(w.Summary) }),
		),
		app.If(p.notice != "", func() app.UI { return app.P().ID("walk-notice").Class("notice").Role("status").Text(p.notice) }),
		ui.HTML("prose", w.DescriptionHTML),
		app.If(len(inputs) > 0, func() app.UI {
			return app.FieldSet().ID("walk-inputs").Class("params").Body(app.Legend().Text("Inputs"), app.Div().Class("fields").Body(inputs...))
		}),
		app.Div().Class("form-actions walk-actions").Body(
			app.Button().ID("walk-run-step").Class("btn btn-primary").Disabled(p.Sending || done).Text("Run step").OnClick(p.onRunStep),
			app.Button().ID("walk-run-all").Class("btn").Disabled(p.Sending || done).Text("Run all").OnClick(p.onRunAll),
			app.Button().ID("walk-stop").Class("btn").Disabled(!p.Sending).Text("Stop").OnClick(p.onStop),
			app.Button().ID("walk-restart").Class("btn btn-quiet").Disabled(p.Sending).Text("Start again").OnClick(p.onRestart),
			app.Span().ID("walk-status").Class("form-status").Aria("live", "polite").Text(p.statusText()),
		),
		app.Ol().Class("walk-steps").Body(steps...),
	)
}

// statusText says where the run is.
func (p *walkthroughPage) statusText() string {
	switch {
	case p.Sending:
		return "Running " + p.Walk.Steps[p.current].ID + "…"
	case p.current >= len(p.Walk.Steps):
		return "Done: every step passed."
	case p.blocked != "":
		return p.blocked
	}
	for _, s := range p.steps {
		if s.status == "failed" {
			return "Stopped: a step failed."
		}
	}
	return "Next: step " + ui.Itoa(p.current+1) + " of " + ui.Itoa(len(p.Walk.Steps)) + "."
}

// renderStep renders one step: a summary line, and for the current or a judged step its
// description, carried values, request, answer, criteria and outputs.
func (p *walkthroughPage) renderStep(i int) app.UI {
	ws, s := &p.Walk.Steps[i], &p.steps[i]
	operation := p.op(i)
	status := s.status
	if status == "" && i == p.current {
		status = "current"
	}
	open := i == p.current || s.result != nil || s.stream != nil
	head := app.Div().Class("walk-step-head").Body(
		app.Span().Class("walk-step-num").Text(ui.Itoa(i+1)),
		app.Strong().Class("mono").Text(ws.ID),
		app.A().Href(ui.Href("/"+p.API.Slug+"/"+ws.OperationID)).Class("mono op-link").Text(ws.OperationID),
		app.If(status != "", func() app.UI { return app.Span().Class("badge walk-badge walk-" + status).Text(status) }),
	)
	if !open {
		return app.Li().ID("walk-step-" + ws.ID).Class("walk-step walk-step-" + status).Body(head)
	}
	var carried []app.UI
	for _, c := range append(s.carried[:len(s.carried):len(s.carried)], s.bodyFrom...) {
		if c.From == "" {
			continue
		}
		name := c.Name
		if c.In == "body" {
			name = "body " + c.Name
		}
		carried = append(carried, app.Li().Class("carried").Body(
			app.Code().Text(name), app.Text(" = "), app.Code().Class("carried-value").Text(strings.Join(c.Values, ", ")),
			app.Span().Class("carried-from").Text(" ← "+sourceLabel(c.From)),
		))
	}
	var form, preview app.UI
	if s.prepared && operation != nil {
		if i == p.current {
			form = p.renderStepForm(operation)
		}
		preview = op.NewRequestPreview(p.API, operation, request.Preview(operation, s.form.Base, s.form.State), snippet.Held(p.API, operation), s.form.Invalid())
	}
	return app.Li().ID("walk-step-"+ws.ID).Class("walk-step walk-step-"+status).Body(
		head,
		ui.HTML("prose small", ws.DescriptionHTML),
		app.If(s.prepErr != "", func() app.UI { return app.P().Class("field-error walk-error").Role("alert").Text(s.prepErr) }),
		app.If(len(carried) > 0, func() app.UI {
			return app.Div().Class("walk-carried").Body(app.P().Class("muted").Text("Carried into this step:"), app.Ul().Body(carried...))
		}),
		form,
		preview,
		app.If(s.stream != nil, func() app.UI {
			return app.Div().Class("walk-stream").Body(chatstream.NewMessage(s.stream, 0, s.stream.Answer.Rev))
		}),
		app.If(s.stream == nil && s.result != nil && operation != nil, func() app.UI { return op.NewResponsePanel(operation, s.result, false, "") }),
		p.renderJudgement(s),
	)
}

// renderJudgement renders a step's criteria, outputs and, after a failure, what to try.
func (p *walkthroughPage) renderJudgement(s *walkStepState) app.UI {
	if s.answer == nil {
		return nil
	}
	a := s.answer
	var crit []app.UI
	for _, c := range a.Criteria {
		mark := map[string]string{"passed": "✓", "failed": "✗"}[c.Outcome]
		if mark == "" {
			mark = "·"
		}
		crit = append(crit, app.Li().Class("criterion criterion-"+strings.ReplaceAll(c.Outcome, " ", "-")).Body(
			app.Span().Class("criterion-mark").Aria("hidden", "true").Text(mark),
			app.Code().Text(c.Condition), app.Span().Class("criterion-outcome").Text(" "+c.Outcome)))
	}
	var outs []app.UI
	for name, raw := range a.Outputs {
		outs = append(outs, app.Dt().Class("mono").Text(name), app.Dd().Body(app.Code().Text(ui.Shorten(string(raw), 200))))
	}
	return app.Div().Class("walk-judgement").Body(
		app.If(len(crit) > 0, func() app.UI { return app.Ul().Class("criteria").Aria("label", "Success criteria").Body(crit...) }),
		app.If(len(outs) > 0, func() app.UI { return app.Dl().Class("walk-outputs").Body(outs...) }),
		app.If(a.Error != "" || (!a.OK && a.Hint != ""), func() app.UI {
			return app.Div().Class("walk-failure").Role("alert").Body(
				app.Strong().Text("This step failed. "),
				app.Text(strings.TrimSpace(a.Error+" "+a.Hint)))
		}),
	)
}

// sourceLabel says where a carried value comes from: "step search, output id" or "input query".
func sourceLabel(expr string) string {
	if rest, ok := strings.CutPrefix(expr, "$steps."); ok {
		step, out, _ := strings.Cut(rest, ".outputs.")
		return "step " + step + ", output " + out
	}
	if name, ok := strings.CutPrefix(expr, "$inputs."); ok {
		return "input " + name
	}
	return expr
}

// walkthroughRoute picks the page of /walkthroughs/<id>.
func walkthroughRoute(cat *catalog.Catalog, id string) app.UI {
	var ids []string
	for i := range cat.Walkthroughs {
		w := &cat.Walkthroughs[i]
		if w.ID == id {
			if a := cat.API(w.API); a != nil {
				return newWalkthroughPage(w, a)
			}
		}
		ids = append(ids, w.ID)
	}
	if id == "" {
		return ui.NotFound("Pick a walkthrough on the home page.")
	}
	return ui.NotFound("There is no walkthrough “" + id + "”. The walkthroughs are: " + strings.Join(ids, ", ") + ".")
}

// walkthroughList links the walkthroughs of one API (slug), or of every API when slug is "".
func walkthroughList(cat *catalog.Catalog, slug string) app.UI {
	if cat == nil {
		return nil
	}
	var items []app.UI
	for _, w := range cat.Walkthroughs {
		if slug != "" && w.API != slug {
			continue
		}
		items = append(items, app.Li().Body(
			app.A().Href(ui.Href("/walkthroughs/"+w.ID)).Text(w.Title),
			app.If(w.Summary != "", func() app.UI { return app.Span().Class("muted").Text(" — " + w.Summary) }),
		))
	}
	if len(items) == 0 {
		return nil
	}
	return app.Section().Class("walk-list").Aria("label", "Walkthroughs").Body(
		app.H2().Text("Walkthroughs"),
		app.P().Class("muted").Text("Runnable first-day tasks: each step is a real request, its values carried into the next."),
		app.Ul().Body(items...),
	)
}
