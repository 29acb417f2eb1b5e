package chat

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/chatstream"
	"loupe/app/fetch"
	"loupe/app/op"
	"loupe/app/request"
	"loupe/app/snippet"
)

// readLink takes the settings and the draft message from the page's fragment, when it holds
// a chat link.
func (v *chatView) readLink() {
	if s, draft, ok := decodeChatLink(op.CurrentFragment(), v.def); ok {
		v.settings, v.draft = s, draft
	}
}

// writeLink puts the settings and the draft message in the URL fragment without adding a
// history entry, so the address is always a link to this chat's setup.
func (v *chatView) writeLink() {
	if !app.IsClient {
		return
	}
	h := app.Window().Get("history")
	h.Call("replaceState", h.Get("state"), "", "#"+encodeChatLink(v.settings, v.def, v.draft))
}

// onDraft hears the composer's message: the link and the request preview follow it.
func (v *chatView) onDraft(ctx app.Context, text string) {
	v.ctx.Dispatch(func(app.Context) {
		v.draft = text
		v.writeLink()
	})
}

// previewRequest is the request Send would make now: the conversation, the draft message
// and the settings. problems is 1 when it cannot be built (tools that are not JSON).
func (v *chatView) previewRequest() (req *request.Request, problems int) {
	turns := v.turns[:len(v.turns):len(v.turns)]
	if v.draft != "" {
		turns = append(turns, &chatstream.Turn{Role: "user", Text: v.draft})
	}
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
			return op.NewRequestPreview(v.API, v.Op, req, snippet.Held(v.API, v.Op), problems)
		}),
	)
}

// onRequestToggle follows the request preview's unfolding.
func (v *chatView) onRequestToggle(ctx app.Context, e app.Event) {
	v.requestOpen = ctx.JSSrc().Get("open").Bool()
}
