package chat

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/chatstream"
	"loupe/app/ui"
)

// chatMaxImage bounds an attached image: it travels base64-encoded in the request body.
const chatMaxImage = 8 << 20

// chatComposer is where the user writes: the message, an optional image (file picker,
// thumbnail, sent as a base64 data URL), Send (also Ctrl+Enter) and Stop.
type chatComposer struct {
	app.Compo

	// Sending is true while an answer streams: Send waits, Stop works.
	Sending bool
	// OnSend receives the message and image and reports whether it took them (the composer
	// then empties); OnStop ends the answer.
	OnSend func(ctx app.Context, text string, img *chatstream.Image) bool
	OnStop func(ctx app.Context)
	// Draft is the message a link opened the chat with; OnDraft hears every change of the
	// message being typed (nil: nobody listens).
	Draft   string
	OnDraft func(ctx app.Context, text string)

	text       string
	draftTaken bool // the link's draft was taken (see takeDraft)
	image      *chatstream.Image
	reading    bool
	problem    string
}

func newChatComposer(sending bool, onSend func(app.Context, string, *chatstream.Image) bool, onStop func(app.Context)) *chatComposer {
	return &chatComposer{Sending: sending, OnSend: onSend, OnStop: onStop}
}

// draft sets the message a link holds and who hears the message change.
func (c *chatComposer) draft(text string, on func(app.Context, string)) *chatComposer {
	c.Draft, c.OnDraft = text, on
	return c
}

// OnMount starts from the link's draft message.
func (c *chatComposer) OnMount(ctx app.Context) { c.takeDraft() }

// OnUpdate takes the link's draft message when the view read it after the composer mounted.
func (c *chatComposer) OnUpdate(ctx app.Context) { c.takeDraft() }

// takeDraft starts the message from the link's draft, once: later drafts are the composer's
// own text coming back.
func (c *chatComposer) takeDraft() {
	if !c.draftTaken && c.Draft != "" {
		c.text, c.draftTaken = c.Draft, true
	}
}

// onInput keeps the text being typed.
func (c *chatComposer) onInput(ctx app.Context, e app.Event) {
	c.text = ctx.JSSrc().Get("value").String()
	if c.OnDraft != nil {
		c.OnDraft(ctx, c.text)
	}
}

// onKey sends on Ctrl+Enter (Cmd+Enter on a Mac).
func (c *chatComposer) onKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
		e.PreventDefault()
		c.text = ctx.JSSrc().Get("value").String()
		c.send(ctx)
	}
}

// onSend sends the message.
func (c *chatComposer) onSend(ctx app.Context, e app.Event) { c.send(ctx) }

func (c *chatComposer) send(ctx app.Context) {
	if c.Sending || c.reading || (strings.TrimSpace(c.text) == "" && c.image == nil) || c.OnSend == nil {
		return
	}
	if !c.OnSend(ctx, c.text, c.image) {
		return
	}
	c.text, c.image, c.problem = "", nil, ""
	if c.OnDraft != nil {
		c.OnDraft(ctx, "")
	}
	// go-app drops an empty value attribute instead of setting it: clear the field itself.
	if in := app.Window().GetElementByID("chat-input"); in.Truthy() {
		in.Set("value", "")
	}
}

// onStop ends the answer being streamed.
func (c *chatComposer) onStop(ctx app.Context, e app.Event) {
	if c.OnStop != nil {
		c.OnStop(ctx)
	}
}

// onImage reads the picked image as a data URL with the browser's FileReader.
func (c *chatComposer) onImage(ctx app.Context, e app.Event) {
	input := ctx.JSSrc()
	files := input.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	file := files.Index(0)
	name, mime, size := file.Get("name").String(), file.Get("type").String(), file.Get("size").Int()
	input.Set("value", "") // so picking the same file again fires change
	switch {
	case !strings.HasPrefix(mime, "image/"):
		c.problem = name + " is not an image (" + mime + ")."
		return
	case size > chatMaxImage:
		c.problem = name + " is " + ui.HumanSize(size) + "; images up to " + ui.HumanSize(chatMaxImage) + " can be sent."
		return
	}
	reader := app.Window().Get("FileReader").New()
	c.reading, c.problem = true, ""
	var onLoad, onError app.Func
	release := func() { onLoad.Release(); onError.Release() }
	onLoad = app.FuncOf(func(app.Value, []app.Value) any {
		url := reader.Get("result").String()
		ctx.Dispatch(func(app.Context) {
			c.reading = false
			c.image = &chatstream.Image{Name: name, Mime: mime, Size: size, DataURL: url}
		})
		release()
		return nil
	})
	onError = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Dispatch(func(app.Context) { c.reading, c.problem = false, "Could not read "+name+"." })
		release()
		return nil
	})
	reader.Set("onload", onLoad)
	reader.Set("onerror", onError)
	reader.Call("readAsDataURL", file)
}

// onRemoveImage drops the attached image.
func (c *chatComposer) onRemoveImage(ctx app.Context, e app.Event) { c.image = nil }

// Render implements app.Composer.
func (c *chatComposer) Render() app.UI {
	canSend := !c.Sending && !c.reading && (strings.TrimSpace(c.text) != "" || c.image != nil)
	return app.Div().Class("chat-composer panel").Body(
		app.Label().Class("visually-hidden").For("chat-input").Text("Message"),
		app.Textarea().ID("chat-input").Class("input chat-input").Rows(3).
			Placeholder("Message the model… (Ctrl+Enter to send)").Text(c.text).
			OnInput(c.onInput).OnKeyDown(c.onKey),
		app.If(c.image != nil, func() app.UI {
			return app.Figure().Class("chat-attachment").Body(
				app.Img().ID("chat-image-thumb").Src(c.image.DataURL).Alt("%s", c.image.Name).Height(64),
				app.FigCaption().Body(
					app.Span().Class("muted").Text(c.image.Name+" · "+ui.HumanSize(c.image.Size)+" "),
					app.Button().Type("button").Class("btn btn-link btn-small").Text("remove").OnClick(c.onRemoveImage),
				),
			)
		}),
		app.If(c.problem != "", func() app.UI { return app.P().Class("field-error").Role("alert").Text(c.problem) }),
		app.Div().Class("chat-actions").Body(
			app.Label().Class("btn btn-quiet chat-attach").Title("Attach an image (sent base64-encoded)").Body(
				app.Input().ID("chat-image").Type("file").Accept("image/*").Class("visually-hidden").OnChange(c.onImage),
				app.Text("Attach image"),
			),
			app.If(c.reading, func() app.UI { return app.Span().Class("muted").Text("reading image…") }),
			app.Span().Class("spacer"),
			app.Span().Class("shortcut muted").Text("Ctrl+Enter"),
			app.Button().Type("button").ID("chat-stop").Class("btn").Disabled(!c.Sending).Text("Stop").OnClick(c.onStop),
			app.Button().Type("button").ID("chat-send").Class("btn btn-primary").Disabled(!canSend).Text("Send").OnClick(c.onSend),
		),
	)
}
