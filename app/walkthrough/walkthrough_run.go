package walkthrough

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/op"
	"loupe/app/request"
	"loupe/app/ui"
)

// This file holds how the walkthrough page runs its steps: the server resolves a step's request
// and judges its answer (POST /walkthroughs/<id>/step, libopenapi's evaluator); the page sends
// the request through the shared request runner, as the operation page's Send does.

// askStep posts a step request to the server and decodes its answer.
func askStep(ctx context.Context, id string, req catalog.WalkStepRequest) (*catalog.WalkStepAnswer, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	res, err := fetch.Do(ctx, fetch.Request{Method: "POST", URL: "/walkthroughs/" + url.PathEscape(id) + "/step",
		Headers: []fetch.Header{{Name: "Content-Type", Value: "application/json"}}, Body: body})
	if err != nil {
		return nil, fmt.Errorf("the Loupe server did not answer (%v)", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("the Loupe server's answer was cut short (%v)", err)
	}
	var ans catalog.WalkStepAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("the Loupe server answered %d with something that is not a step answer", res.Status)
	}
	return &ans, nil
}

// prepare asks the server for step i's request and fills its form with it.
func (p *walkthroughPage) prepare(ctx app.Context, i int, then func(app.Context)) {
	if i >= len(p.Walk.Steps) {
		return
	}
	ws := &p.Walk.Steps[i]
	req := catalog.WalkStepRequest{Step: ws.ID, Inputs: p.inputValues(), Outputs: p.outputs}
	seq := p.Seq
	ctx.Async(func() {
		ans, err := askStep(context.Background(), p.Walk.ID, req)
		ctx.Dispatch(func(ctx app.Context) {
			if seq != p.Seq {
				return
			}
			s := &p.steps[i]
			if err != nil {
				s.prepErr = err.Error()
				return
			}
			if ans.Error != "" {
				s.prepErr = ans.Error
				return
			}
			s.prepErr = ""
			s.carried, s.bodyFrom = ans.Params, ans.BodyFrom
			f := op.FormState{Op: p.op(i), Base: "/proxy/" + p.API.Slug, State: request.State{Params: map[string][]string{}, Body: ans.Body}}
			for _, prm := range ans.Params {
				f.State.Params[prm.In+":"+prm.Name] = slices.Clone(prm.Values) // edits must not change the carried values
			}
			f.Validate()
			s.form, s.prepared = f, true
			op.SyncFields(ctx) // the step's inputs show its values, not the last step's
			if then != nil {
				then(ctx)
			}
		})
	})
}

// runStep sends the current step's request, then has the server judge the answer.
func (p *walkthroughPage) runStep(ctx app.Context) {
	i := p.current
	if i >= len(p.Walk.Steps) || p.Sending {
		return
	}
	s := &p.steps[i]
	if !s.prepared {
		p.prepare(ctx, i, p.runStep)
		return
	}
	req, focus := s.form.Build()
	if req == nil {
		// As on the operation page: the errors show at their fields, the first one gets focus.
		p.runAll = false
		p.blocked = ui.Plural(s.form.Invalid(), "field needs", "fields need") + " fixing before this step can run: " + firstError(&s.form)
		ctx.Defer(func(app.Context) { ui.FocusByID(focus) })
		return
	}
	p.blocked = ""
	if streamed(p.op(i), req) {
		p.runStream(ctx, i, req)
		return
	}
	s.stream = nil
	cctx, seq := p.Start()
	s.result, s.answer, s.status = nil, nil, "running"
	ws := &p.Walk.Steps[i]
	wreq := catalog.WalkStepRequest{Step: ws.ID, Inputs: p.inputValues(), Outputs: p.outputs}
	id := p.Walk.ID
	operation, base, st := p.op(i), s.form.Base, s.form.State.Clone() // for the history, as sent
	ctx.Async(func() {
		ex := op.RoundTrip(cctx, req)
		var ans *catalog.WalkStepAnswer
		var err error
		if ex.Status != 0 && ex.Err == "" {
			wreq.Response = &catalog.WalkResponse{Status: ex.Status, ContentType: headerOf(ex, "content-type"), Body: string(ex.Body)}
			ans, err = askStep(context.Background(), id, wreq)
		}
		ctx.Dispatch(func(ctx app.Context) {
			op.RecordHistory(ctx, p.API, operation, base, st, ex)
			if !p.Finish(seq) {
				return
			}
			s.result = ex
			switch {
			case ex.Status == 0 || ex.Err != "":
				s.status, p.runAll = "failed", false
				s.answer = &catalog.WalkStepAnswer{Hint: "No answer arrived: " + ex.Err}
			case err != nil:
				s.status, p.runAll = "failed", false
				s.answer = &catalog.WalkStepAnswer{Hint: err.Error()}
			default:
				s.answer = ans
				p.advance(ctx, i, ans)
			}
		})
	})
}

// advance records a judged step and moves to the next one.
func (p *walkthroughPage) advance(ctx app.Context, i int, ans *catalog.WalkStepAnswer) {
	s := &p.steps[i]
	if !ans.OK || ans.Error != "" {
		s.status, p.runAll = "failed", false
		return
	}
	s.status = "passed"
	if p.outputs == nil {
		p.outputs = map[string]map[string]json.RawMessage{}
	}
	p.outputs[p.Walk.Steps[i].ID] = ans.Outputs
	next := len(p.Walk.Steps)
	for j, ws := range p.Walk.Steps {
		if ans.Next != "" && ws.ID == ans.Next {
			next = j
		}
	}
	p.current = next
	if next < len(p.Walk.Steps) {
		p.steps[next] = walkStepState{}
		if p.runAll {
			p.prepare(ctx, next, p.runStep)
		} else {
			p.prepare(ctx, next, nil)
		}
	} else {
		p.runAll = false
	}
	p.writeFragment()
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

// fragment encodes the progress: the inputs typed, the current step, and the outputs of the
// steps done, so that a half-done walkthrough is a link.
func (p *walkthroughPage) fragmentText() string {
	v := url.Values{}
	for k, val := range p.inputs {
		v.Set("in."+k, val)
	}
	if p.current < len(p.Walk.Steps) {
		v.Set("step", p.Walk.Steps[p.current].ID)
	} else {
		v.Set("step", "done")
	}
	if len(p.outputs) > 0 {
		b, _ := json.Marshal(p.outputs)
		v.Set("out", string(b))
	}
	return "#" + v.Encode()
}

// readFragment restores the progress from a fragment; it returns a notice when it cannot.
func (p *walkthroughPage) readFragment(frag string) string {
	p.inputs, p.outputs, p.current = map[string]string{}, nil, 0
	if strings.TrimPrefix(frag, "#") == "" {
		return ""
	}
	v, err := url.ParseQuery(strings.TrimPrefix(frag, "#"))
	if err != nil {
		return "This link's progress could not be read; the walkthrough starts at its first step."
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if name, ok := strings.CutPrefix(k, "in."); ok {
			p.inputs[name] = v.Get(k)
		}
	}
	if out := v.Get("out"); out != "" {
		if err := json.Unmarshal([]byte(out), &p.outputs); err != nil {
			p.outputs = nil
			return "This link's carried values could not be read; the walkthrough starts at its first step."
		}
	}
	switch step := v.Get("step"); step {
	case "", p.Walk.Steps[0].ID:
	case "done":
		p.current = len(p.Walk.Steps)
	default:
		p.current = -1
		for j, ws := range p.Walk.Steps {
			if ws.ID == step {
				p.current = j
			}
		}
		if p.current < 0 {
			p.current = 0
			return "This walkthrough has no step “" + step + "”; it starts at its first step."
		}
	}
	for j := 0; j < p.current; j++ {
		if _, done := p.outputs[p.Walk.Steps[j].ID]; done {
			p.steps[j].status = "passed"
		}
	}
	return ""
}
