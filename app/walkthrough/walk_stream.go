package walkthrough

import (
	"encoding/json"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/chatstream"
	"loupe/app/op"
	"loupe/app/request"
)

// This file sends a walkthrough request whose answer streams (a chat completion with stream:
// true): the chat's own answer (chatstream.Answer, rendered by chatstream.NewMessage) reads
// and shows the tokens as they arrive, a chatstream.Record keeps the raw response beside it,
// and once the stream is over the service judges that response, as it judges any other.

// streamed reports whether a request of an operation asks for a streamed chat completion.
func streamed(operation *catalog.Operation, req *request.Request) bool {
	if operation == nil || operation.Viewer != catalog.ViewerChat || len(req.Body) == 0 {
		return false
	}
	var b struct {
		Stream bool `json:"stream"`
	}
	return json.Unmarshal(req.Body, &b) == nil && b.Stream
}

// sendStream sends the next request after wait and shows its answer as it streams; the step
// is judged when the stream ends, and left unjudged when Stop ends it.
func (p *walkthroughPage) sendStream(ctx app.Context, req *request.Request, wait time.Duration) {
	r := &p.run
	cctx, seq := p.Start()
	a := chatstream.NewAnswer(chatstream.Markdown())
	a.Record = &chatstream.Record{}
	turn := &chatstream.Turn{Role: "assistant", Answer: a}
	r.stream, r.waiting = turn, wait.Seconds()
	operation, api, carried := r.callOp, r.callAPI, carriedOf(r.call)
	base, st := r.form.Base, r.form.State.Clone() // for the history, as sent
	next := p.request()
	next.State = r.state
	a.OnOver = func(ctx app.Context) {
		for _, c := range a.Calls {
			a.Answered[c.ID] = true // the walkthrough's next step sends the tool's result
		}
		ex := a.Record.Exchange(req, time.Since(a.Start))
		ex.Canceled, ex.Err = a.Stopped, a.NetErr
		op.RecordHistory(ctx, api, operation, base, st, ex)
		if !p.Finish(seq) {
			return
		}
		if a.Stopped || a.NetErr != "" || a.Cut != "" || ex.Status == 0 {
			p.endStream(a)
			return
		}
		next.Response = &catalog.WalkResponse{Status: ex.Status, ContentType: headerOf(ex, "content-type"), Body: string(ex.Body)}
		r.stream = nil
		p.ask(ctx, next, &walkEvent{api: api, op: operation, ex: ex, stream: turn, carried: carried}, false)
	}
	ctx.Async(func() {
		if !sleep(cctx, wait) {
			ctx.Dispatch(func(ctx app.Context) {
				if p.Finish(seq) {
					r.stream, r.waiting, p.rest = nil, 0, false
				}
			})
			return
		}
		ctx.Dispatch(func(app.Context) { r.waiting = 0 })
		a.Send(ctx, cctx, req.URL, req.Body)
	})
}

// endStream leaves a stream that ended without an answer to judge (stopped, cut or unsent)
// shown, unjudged: Run step sends the request again.
func (p *walkthroughPage) endStream(a *chatstream.Answer) {
	p.rest, p.stopped = false, a.Stopped
	switch {
	case a.Stopped:
		p.blocked = "Stopped: what arrived stays shown; Run step sends the request again."
	case a.NetErr != "":
		p.blocked = "The stream ended early (no answer arrived: " + a.NetErr + "). Run step sends the request again."
	default:
		p.blocked = "The stream ended early (" + a.Cut + "). Run step sends the request again."
	}
}

// stopStream ends the stream of the request in flight, when there is one; true when there was.
func (p *walkthroughPage) stopStream(ctx app.Context) bool {
	t := p.run.stream
	if t == nil || !t.Answer.Streaming {
		return false
	}
	t.Answer.Stop(ctx)
	return true
}
