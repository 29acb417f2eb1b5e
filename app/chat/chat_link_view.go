package chat

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/chatstream"
	"loupe/app/fetch"
	"loupe/app/op"
	"loupe/app/permalink"
	"loupe/app/request"
	"loupe/app/snippet"
	"loupe/app/ui"
)

// readLink takes the settings, the conversation and the draft message from the page's
// fragment, when it holds a chat link; what it could not read is named in linkNote.
func (v *chatView) readLink() {
	l, ok := decodeChatLink(op.CurrentFragment(), v.def)
	if !ok {
		return
	}
	v.settings, v.draft, v.linkNote = l.settings, l.draft, l.problem
	if len(l.msgs) > 0 {
		v.turns = chatstream.FromTranscript(l.msgs, chatstream.Markdown())
	}
}

// writeLink puts the settings, the finished conversation and the draft message in the URL
// fragment without adding a history entry, so the address is always a link to this chat. It
// returns the fragment written. A conversation that would make the address longer than
// browsers open (permalink.MaxURL) is left out, and linkNote says so.
func (v *chatView) writeLink() string {
	if !app.IsClient {
		return ""
	}
	loc := app.Window().Get("location")
	room := permalink.MaxURL - len(loc.Get("origin").String()+loc.Get("pathname").String()) - 1
	frag := "#" + encodeChatLink(v.settings, v.def, v.draft, chatstream.Transcript(v.turns))
	v.linkNote, v.linkCopied = "", false
	if len(frag) > room {
		long := len(frag)
		frag = "#" + encodeChatLink(v.settings, v.def, v.draft, nil)
		v.linkNote = "The conversation is too long for a link (" + ui.HumanSize(long) + "; browsers open addresses up to 2 MiB): the link holds the settings and the draft only."
	}
	h := app.Window().Get("history")
	h.Call("replaceState", h.Get("state"), "", frag)
	return frag
}

// onCopyLink copies a link to this chat, its conversation included, to the clipboard.
func (v *chatView) onCopyLink(ctx app.Context, e app.Event) {
	frag := v.writeLink()
	loc := app.Window().Get("location")
	link := loc.Get("origin").String() + loc.Get("pathname").String() + frag
	v.linkCopied = false
	ui.WriteClipboard(ctx, link, func(app.Context) { v.linkCopied = true })
}

// onDraft hears the composer's message: the link and the request preview follow it.
func (v *chatView) onDraft(ctx app.Context, text string) {
	v.ctx.Dispatch(func(app.Context) {
		v.draft = text
		v.writeLink()
	})
}

// previewRequest is the request Send (or, with no message typed, Send again) would make now:
// the conversation, the draft message and the settings (sendTurns). problems is 1 when it
// cannot be built (tools that are not JSON).
func (v *chatView) previewRequest() (req *request.Request, problems int) {
	turns, _ := v.sendTurns()
	body, err := chatstream.Body(v.settings, turns)
	if err != nil {
		problems = 1
	}
	url := v.proxyURL()
	return &request.Request{
		Method:  "POST",
		URL:     url,
		Path:    url,
		Headers: []fetch.Header{{Name: "Content-Type", Value: "application/json"}},
		Body:    body,
	}, problems
}

// renderRequest shows the request preview and its curl command, folded under the settings.
// The body is built only while it is unfolded: a long conversation is not encoded again for
// every token of a streaming answer.
func (v *chatView) renderRequest() app.UI {
	return app.Details().ID("chat-request").Class("chat-request").Open(v.requestOpen).OnToggle(v.onRequestToggle).Body(
		app.Summary().Text("Request preview and curl"),
		app.If(v.requestOpen, func() app.UI {
			req, problems := v.previewRequest()
			_, again := v.sendTurns()
			return app.Div().Body(
				app.If(again, func() app.UI {
					return app.P().ID("chat-request-note").Class("muted").Text("The message field is empty: this is what Send again sends, the conversation without the answer that failed.")
				}),
				op.NewRequestPreview(v.API, v.Op, req, snippet.Held(v.API, v.Op), problems),
			)
		}),
	)
}

// onRequestToggle follows the request preview's unfolding.
func (v *chatView) onRequestToggle(ctx app.Context, e app.Event) {
	v.requestOpen = ctx.JSSrc().Get("open").Bool()
}

// copyLinkText is the Copy link button's label.
func copyLinkText(copied bool) string {
	if copied {
		return "Link copied"
	}
	return "Copy link"
}
