package walkthrough

import (
	"context"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/op"
	"loupe/app/ui"
)

// This file holds how the page runs a workflow: it asks the service where the run is (the
// run protocol: start, resume from a link, or the answer to the last request), fills the next
// request's form with what the service resolved, sends what the form shows through the shared
// request runner (as the operation page's Send does), and hands the answer back to be judged.

// request is a run request carrying the page's document, when it runs one of its own.
func (p *walkthroughPage) request() catalog.WalkRunRequest {
	req := catalog.WalkRunRequest{}
	if p.File != nil {
		req.Document, req.Name, req.Origin = p.File.Text, p.File.Name, ui.Origin()
	}
	return req
}

// start starts a run of the workflow picked with the inputs the form shows, and prepares its
// first request; then, with rest, runs it to its end. While a required input is empty there is
// no request to prepare: Run step then says which (inputsReady).
func (p *walkthroughPage) start(ctx app.Context, rest bool) {
	if p.missingInput() != "" {
		return
	}
	req := p.request()
	if wf := p.workflowOf(); wf != nil {
		req.Workflow = wf.ID
	}
	req.Inputs = p.inputValues()
	p.ask(ctx, req, nil, rest)
}

// resume continues the run a link's state describes: the service gives its next request again.
func (p *walkthroughPage) resume(ctx app.Context, state []byte) {
	req := p.request()
	req.State = state
	p.ask(ctx, req, nil, false)
	p.run.restored = restoredFrom(state)
}

// ask posts a run request and takes its answer in (done is the step whose answer it carries);
// with rest, the next request is sent once it is prepared.
func (p *walkthroughPage) ask(ctx app.Context, req catalog.WalkRunRequest, done *walkEvent, rest bool) {
	cctx, seq := p.Start()
	path := runPath(p.Walk, p.File)
	ctx.Async(func() {
		ans := askRun(cctx, path, req)
		stopped := cctx.Err() != nil // read before Finish, which cancels cctx in any case
		ctx.Dispatch(func(ctx app.Context) {
			if !p.Finish(seq) {
				return
			}
			if stopped { // Stop, before the service answered: the run is as it was
				p.rest = false
				if done != nil {
					p.blocked, p.stopped = "Stopped before the answer was judged: Run step sends the request again.", true
				}
				return
			}
			if !p.run.apply(ans, done) {
				p.rest = false
				if p.run.errInput != "" {
					ctx.Defer(func(app.Context) { ui.FocusByID("walk-input-" + p.run.errInput) })
				}
				return
			}
			p.prepare(ctx)
			if p.run.sent() {
				p.writeFragment()
			}
			if p.run.finished || p.run.call == nil {
				p.rest = false
				return
			}
			if rest || p.rest {
				p.rest = true
				p.send(ctx)
			}
		})
	})
}

// prepare fills the next request's form with the values the service resolved.
func (p *walkthroughPage) prepare(ctx app.Context) {
	r := &p.run
	r.form, r.callOp, r.callAPI, r.stream = op.FormState{}, nil, nil, nil
	c := r.call
	if c == nil {
		return
	}
	r.callAPI = p.Cat.API(c.API)
	if r.callAPI != nil {
		r.callOp = r.callAPI.Operation(c.OperationID)
	}
	if r.callOp == nil {
		r.err = "Step " + c.Step + " calls " + c.OperationID + " of API " + c.API + ", which this Loupe does not show: it cannot be sent from here."
		return
	}
	r.form = callForm(c, r.callOp, "/proxy/"+r.callAPI.Slug)
	r.callOp = r.form.Op
	op.SyncFields(ctx) // the fields show this request's values, not the last one's
}

// send sends the next request as its form shows it, waiting first as a retry asks, then has
// the service judge the answer.
func (p *walkthroughPage) send(ctx app.Context) {
	r := &p.run
	if p.Sending || r.call == nil || r.callOp == nil {
		p.rest = false
		return
	}
	req, focus := r.form.Build()
	if req == nil {
		// As on the operation page: the errors show at their fields, the first one gets focus.
		p.rest, p.stopped = false, false
		p.blocked = ui.Plural(r.form.Invalid(), "field needs", "fields need") + " fixing before this step can run: " + firstError(&r.form)
		ctx.Defer(func(app.Context) { ui.FocusByID(focus) })
		return
	}
	p.blocked = ""
	call, operation, api := r.call, r.callOp, r.callAPI
	base, st := r.form.Base, r.form.State.Clone() // for the history, as sent
	wait := time.Duration(call.After * float64(time.Second))
	if streamed(operation, req) {
		p.sendStream(ctx, req, wait)
		return
	}
	cctx, seq := p.Start()
	r.waiting = call.After
	next := p.request()
	next.State = r.state
	ctx.Async(func() {
		if !sleep(cctx, wait) {
			ctx.Dispatch(func(ctx app.Context) {
				if p.Finish(seq) {
					r.waiting, p.rest = 0, false
				}
			})
			return
		}
		ctx.Dispatch(func(app.Context) { r.waiting = 0 })
		ex := op.RoundTrip(cctx, req)
		ctx.Dispatch(func(ctx app.Context) {
			op.RecordHistory(ctx, api, operation, base, st, ex)
			if !p.Finish(seq) {
				return
			}
			if ex.Canceled {
				p.rest = false // Stop: the step stays as it was, ready to be sent again
				return
			}
			next.Response = &catalog.WalkResponse{Status: ex.Status, ContentType: headerOf(ex, "content-type"), Body: string(ex.Body)}
			p.ask(ctx, next, &walkEvent{api: api, op: operation, ex: ex, carried: carriedOf(call)}, false)
		})
	})
}

// sleep waits d, or until ctx ends; false when it ended.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func firstError(f *op.FormState) string {
	for k, m := range f.Errs {
		return k + ": " + m
	}
	if len(f.BodyErrs) > 0 {
		return f.BodyErrs[0].Error()
	}
	return ""
}

func headerOf(ex *op.Exchange, name string) string {
	for _, h := range ex.Headers {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

func (p *walkthroughPage) onRunStep(ctx app.Context, e app.Event) {
	p.rest = false
	p.step(ctx)
}

// step sends the next request; before the run started (its inputs were wrong), it starts it.
func (p *walkthroughPage) step(ctx app.Context) {
	if p.run.call == nil && !p.run.finished {
		if !p.inputsReady(ctx) {
			return
		}
		p.start(ctx, p.rest)
		return
	}
	p.send(ctx)
}

func (p *walkthroughPage) onRunRest(ctx app.Context, e app.Event) {
	p.rest = true
	p.step(ctx)
}

func (p *walkthroughPage) onRunAll(ctx app.Context, e app.Event) {
	p.restart(ctx)
	if !p.inputsReady(ctx) {
		return
	}
	p.rest = true
	p.start(ctx, true)
}

func (p *walkthroughPage) onStop(ctx app.Context, e app.Event) {
	p.rest = false
	p.stopStream(ctx)
	p.Stop()
}

// onRestart starts the workflow again from its first step, keeping the inputs.
func (p *walkthroughPage) onRestart(ctx app.Context, e app.Event) {
	p.restart(ctx)
	p.start(ctx, false)
}

// restart forgets the run, keeping the workflow and inputs.
func (p *walkthroughPage) restart(ctx app.Context) {
	p.stopStream(ctx)
	p.Stop()
	p.Forget()
	p.run, p.rest, p.blocked = walkRun{}, false, ""
	p.writeFragment()
}
