package walkthrough

import (
	"context"
	"encoding/json"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/chatstream"
	"loupe/app/op"
	"loupe/app/request"
)

// This file runs a walkthrough step whose answer streams (a chat completion with stream: true):
// the chat's own answer (chatstream.Answer, rendered by chatstream.NewMessage) reads and shows
// the tokens as they arrive, a chatstream.Record keeps the raw response beside it, and once the
// stream is over the server judges that response, as it judges any other step's.

// streamed reports whether a step's request asks for a streamed chat completion.
func streamed(op *catalog.Operation, req *request.Request) bool {
	if op == nil || op.Viewer != catalog.ViewerChat || len(req.Body) == 0 {
		return false
	}
	var b struct {
		Stream bool `json:"stream"`
	}
	return json.Unmarshal(req.Body, &b) == nil && b.Stream
}

// runStream sends step i's request and shows its answer as it streams; the step is judged when
// the stream ends, and left unjudged when Stop ends it.
func (p *walkthroughPage) runStream(ctx app.Context, i int, req *request.Request) {
	s := &p.steps[i]
	cctx, seq := p.Start()
	a := chatstream.NewAnswer(chatstream.Markdown())
	a.Record = &chatstream.Record{}
	s.result, s.answer, s.status = nil, nil, "running"
	s.stream = &chatstream.Turn{Role: "assistant", Answer: a}
	ws := &p.Walk.Steps[i]
	wreq := catalog.WalkStepRequest{Step: ws.ID, Inputs: p.inputValues(), Outputs: p.outputs}
	operation, base, st := p.op(i), s.form.Base, s.form.State.Clone() // for the history, as sent
	a.OnOver = func(ctx app.Context) {
		for _, c := range a.Calls {
			a.Answered[c.ID] = true // the walkthrough's next step sends the tool's result
		}
		ex := a.Record.Exchange(req, time.Since(a.Start))
		ex.Canceled, ex.Err = a.Stopped, a.NetErr
		op.RecordHistory(ctx, p.API, operation, base, st, ex)
		if a.Stopped || a.NetErr != "" || a.Cut != "" || ex.Status == 0 {
			if p.Finish(seq) {
				p.endStream(i, a)
			}
			return
		}
		wreq.Response = &catalog.WalkResponse{Status: ex.Status, ContentType: headerOf(ex, "content-type"), Body: string(ex.Body)}
		id := p.Walk.ID
		ctx.Async(func() {
			ans, err := askStep(context.Background(), id, wreq)
			ctx.Dispatch(func(ctx app.Context) {
				if !p.Finish(seq) {
					return
				}
				s.result = ex
				if err != nil {
					s.status, p.runAll = "failed", false
					s.answer = &catalog.WalkStepAnswer{Hint: err.Error()}
					return
				}
				s.answer = ans
				p.advance(ctx, i, ans)
			})
		})
	}
	ctx.Async(func() { a.Send(ctx, cctx, req.URL, req.Body) })
}

// endStream records a stream that ended without an answer to judge: stopped, cut or unsent.
func (p *walkthroughPage) endStream(i int, a *chatstream.Answer) {
	s := &p.steps[i]
	p.runAll = false
	if a.Stopped {
		s.status = "" // what arrived stays shown; Run step sends the step again
		return
	}
	s.status = "failed"
	why := a.Cut
	if a.NetErr != "" {
		why = "no answer arrived: " + a.NetErr
	}
	s.answer = &catalog.WalkStepAnswer{Hint: "The stream ended early (" + why + "). Run step to send it again."}
}

// stopStream ends the current step's stream, when one is running; true when there was one.
func (p *walkthroughPage) stopStream(ctx app.Context) bool {
	if p.current >= len(p.steps) {
		return false
	}
	t := p.steps[p.current].stream
	if t == nil || !t.Answer.Streaming {
		return false
	}
	t.Answer.Stop(ctx)
	return true
}
