package op

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// renderBodyType shows the content type the body is sent as: as text when the document offers
// one, else as a menu of every type it offers, in its order. Choosing another type switches
// the editor to the one that type calls for (fields for a form, a text box, a file picker, the
// JSON editor), filled with that type's example; the choice is part of the form's state, so
// the preview, the snippets, the link and the history follow it.
func (f ParamFields) renderBodyType(b *catalog.RequestBody) app.UI {
	types := f.Form().Op.Body.Types()
	if len(types) < 2 {
		return app.Code().Class("field-type").Text(b.ContentType)
	}
	options := make([]app.UI, len(types))
	for i, t := range types {
		options[i] = app.Option().Value(t).Selected(t == b.ContentType).Text(t)
	}
	return app.Span().Class("body-type").Body(
		app.Label().For("body-type").Class("visually-hidden").Text("Content type"),
		app.Select().ID("body-type").Class("input body-type-select mono").Title("Content type: each one the API accepts").
			OnChange(f.onBodyType).Body(options...),
	)
}

// onBodyType sends the body as the chosen content type, from that type's example.
func (f ParamFields) onBodyType(ctx app.Context, e app.Event) {
	form := f.Form()
	form.State.SetBodyType(form.Op, ctx.JSSrc().Get("value").String())
	f.Changed(ctx)
}
