package op

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/app/ui"
)

// This file holds ParamFields' event handlers and the mark of a carried value. Each handler
// changes the state Form returns, then calls Changed.

// eventTarget returns the parameter key and value index an input event comes from.
func eventTarget(ctx app.Context) (key string, index int) {
	ds := ctx.JSSrc().Get("dataset")
	key = ds.Get("key").String()
	index, _ = strconv.Atoi(ds.Get("index").String())
	return key, index
}

func (f ParamFields) onParamInput(ctx app.Context, e app.Event) {
	key, i := eventTarget(ctx)
	f.Form().SetValue(key, i, ctx.JSSrc().Get("value").String())
	f.Changed(ctx)
}

func (f ParamFields) onToggle(ctx app.Context, e app.Event) {
	key, i := eventTarget(ctx)
	form := f.Form()
	form.SetValue(key, i, toggleValue(form.param(key), i, ctx.JSSrc().Get("checked").Bool()))
	f.Changed(ctx)
}

// toggleValue is the value a boolean parameter's switch sets when flipped on or off. An
// optional parameter switched back to what the API assumes without it (its default, else
// false) is not sent at all: on then off sends nothing, never false.
func toggleValue(p *catalog.Parameter, index int, on bool) string {
	if p == nil || p.Required || request.IsList(p) || index > 0 {
		return strconv.FormatBool(on)
	}
	if on == (request.Text(request.ItemSchema(p).Default) == "true") {
		return ""
	}
	return strconv.FormatBool(on)
}

func (f ParamFields) onAddValue(ctx app.Context, e app.Event) {
	key, _ := eventTarget(ctx)
	form := f.Form()
	vs := form.values(key)
	form.SetValue(key, len(vs), "")
	id := inputID(key, len(vs))
	ctx.Defer(func(app.Context) {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Call("focus")
		}
	})
	f.Changed(ctx)
}

func (f ParamFields) onRemoveValue(ctx app.Context, e app.Event) {
	key, i := eventTarget(ctx)
	form := f.Form()
	vs := form.State.Params[key]
	if i < len(vs) {
		form.State.Params[key] = append(vs[:i:i], vs[i+1:]...)
	}
	f.Changed(ctx)
}

func (f ParamFields) onClearParam(ctx app.Context, e app.Event) {
	key, _ := eventTarget(ctx)
	delete(f.Form().State.Params, key)
	f.Changed(ctx)
}

func (f ParamFields) onBodyInput(ctx app.Context, e app.Event) {
	f.Form().State.Body = ctx.JSSrc().Get("value").String()
	f.Changed(ctx)
}

func (f ParamFields) onBodyReset(ctx app.Context, e app.Event) {
	form := f.Form()
	form.State.Body = request.InitialBody(form.Body())
	form.State.Files = nil
	f.Changed(ctx)
}

func (f ParamFields) onBodyFormat(ctx app.Context, e app.Event) {
	form := f.Form()
	if formatted, ok := ui.FormatJSON(form.State.Body); ok {
		form.State.Body = formatted
		f.Changed(ctx)
	}
}

// renderCarried marks a field whose value was carried from elsewhere: where from, and when the
// user has since changed it, that it was edited.
func (f ParamFields) renderCarried(key string) app.UI {
	c, ok := f.Carried[key]
	if !ok {
		return nil
	}
	now := f.Form().State.Params[key]
	if strings.Join(now, "\x00") != strings.Join(c.Values, "\x00") {
		return app.Span().Class("carried-from edited").Title("Carried " + strings.Join(c.Values, ", ") + ", then edited").
			Text("edited · was from " + c.From)
	}
	return app.Span().Class("carried-from").Text("← " + c.From)
}

// renderBodyCarried lists the body's carried values: pointer, value, and where it came from,
// or that it was edited since.
func (f ParamFields) renderBodyCarried() app.UI {
	if len(f.BodyCarried) == 0 {
		return nil
	}
	var doc any
	parsed := json.Unmarshal([]byte(f.Form().State.Body), &doc) == nil
	var items []app.UI
	for _, c := range f.BodyCarried {
		mark := app.Span().Class("carried-from").Text(" ← " + c.From)
		if now, ok := AtPointer(doc, c.Pointer); parsed && (!ok || now != strings.Join(c.Values, "")) {
			mark = app.Span().Class("carried-from edited").Text(" edited · was from " + c.From)
		}
		items = append(items, app.Li().Class("carried").Body(
			app.Code().Text(c.Pointer), app.Text(" = "),
			app.Code().Class("carried-value").Text(ui.Shorten(strings.Join(c.Values, ""), 120)), mark))
	}
	return app.Ul().Class("body-carried").Aria("label", "Values carried into the body").Body(items...)
}

// AtPointer returns the value at a JSON pointer in a decoded document, as valueText shows it.
func AtPointer(doc any, ptr string) (string, bool) {
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := doc.(type) {
		case map[string]any:
			doc = v[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) {
				return "", false
			}
			doc = v[i]
		default:
			return "", false
		}
	}
	if s, ok := doc.(string); ok {
		return s, true
	}
	if doc == nil {
		return "", false
	}
	b, err := json.Marshal(doc)
	return string(b), err == nil
}
