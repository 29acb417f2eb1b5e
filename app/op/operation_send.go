package op

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/request"
	"loupe/app/ui"
)

// This file holds how the operation page sends its request and shares its link.

func (p *operationPage) onCancel(ctx app.Context, e app.Event) { p.Stop() }

func (p *operationPage) onSubmit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	p.send(ctx)
}

// onCopyLink writes the state to the URL and copies the page's link to the clipboard.
func (p *operationPage) onCopyLink(ctx app.Context, e app.Event) {
	frag := p.writeFragment()
	loc := app.Window().Get("location")
	p.link = loc.Get("origin").String() + loc.Get("pathname").String() + frag
	p.linkCopied = false
	link := p.link
	ui.WriteClipboard(ctx, link, func(app.Context) { p.linkCopied = p.link == link })
}

// send validates the form and, when it is valid, sends the request through the proxy.
func (p *operationPage) send(ctx app.Context) {
	if _, own := operationViews[p.Op.Viewer]; own {
		return // the operation's own view sends (chat)
	}
	req, focus := p.Build()
	if req == nil {
		ctx.Defer(func(app.Context) {
			if el := app.Window().GetElementByID(focus); el.Truthy() {
				el.Call("focus")
			}
		})
		return
	}
	p.sendRequest(ctx, req)
}

// sendAnywayAction is posted by the Send anyway button; the page sends from its own context,
// which outlives the button (an event's context ends with its element, which the next render
// may replace before the answer arrives).
const sendAnywayAction = "loupe.sendAnyway"

func (p *operationPage) onSendAnyway(ctx app.Context, e app.Event) { ctx.NewAction(sendAnywayAction) }

// sendAnyway sends the request as the form holds it, though Loupe's checks found fields that
// break the documented schema: how the API rejects bad input is worth seeing.
func (p *operationPage) sendAnyway(ctx app.Context) {
	if _, own := operationViews[p.Op.Viewer]; own || p.Sending {
		return
	}
	p.sendRequest(ctx, p.BuildAnyway())
	ctx.Defer(func(app.Context) { ui.FocusByID("send") })
}

// sendRequest sends req through the proxy and shows the answer.
func (p *operationPage) sendRequest(ctx app.Context, req *request.Request) {
	cctx, seq := p.Start()
	p.writeFragment()
	st := p.State.Clone()
	ctx.Async(func() {
		ex := RoundTrip(cctx, req)
		ctx.Dispatch(func(ctx app.Context) {
			RecordHistory(ctx, p.API, p.Op, p.base(), st, ex)
			if !p.Finish(seq) {
				return
			}
			p.result = ex
			ctx.Defer(func(app.Context) { revealResponse() })
		})
	})
}

// revealResponse scrolls the response panel into view when it is off screen.
func revealResponse() {
	el := app.Window().GetElementByID("response")
	if !el.Truthy() {
		return
	}
	opts := app.Window().Get("Object").New()
	opts.Set("behavior", "instant") // a smooth scroll moves buttons under a pointer already on its way
	// In the two-column layout the right column scrolls by itself: scroll it, not the page.
	if col := el.Call("closest", ".op-side-col"); col.Truthy() && app.Window().Call("getComputedStyle", col).Get("position").String() == "sticky" {
		opts.Set("top", el.Get("offsetTop").Int()) // the sticky column is the offset parent
		col.Call("scrollTo", opts)
		return
	}
	opts.Set("block", "nearest")
	el.Call("scrollIntoView", opts)
}
