package op

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// This file holds the form body's event handlers (body_form.go, body_file.go). Each one
// changes the body through request.State's form editing, which keeps the body's text and its
// files in step, then calls Changed.

// formTarget returns the form field and value index an event comes from.
func formTarget(ctx app.Context) (field string, index int) {
	ds := ctx.JSSrc().Get("dataset")
	field = ds.Get("field").String()
	index, _ = strconv.Atoi(ds.Get("index").String())
	return field, index
}

// onFormInput sets a field's value from its text box, select or JSON box.
func (f ParamFields) onFormInput(ctx app.Context, e app.Event) {
	name, i := formTarget(ctx)
	src := ctx.JSSrc()
	value := src.Get("value").String()
	if src.Get("tagName").String() == "SELECT" && src.Get("selectedIndex").Int() == 0 {
		value = "" // "not sent": go-app writes no value="" attribute, so the option's value is its text
	}
	ctx.Dispatch(func(ctx app.Context) {
		form := f.Form()
		form.State.SetFormValue(form.Body(), name, i, value)
		f.Changed(ctx)
	})
}

// onFormAdd adds a row to a list field and focuses it.
func (f ParamFields) onFormAdd(ctx app.Context, e app.Event) {
	name, _ := formTarget(ctx)
	ctx.Dispatch(func(ctx app.Context) {
		form := f.Form()
		form.State.AddFormItem(form.Body(), name)
		n := 0
		for _, fld := range formFieldsOf(form) {
			if fld.Name == name {
				n = len(fld.Values)
			}
		}
		id := bodyFieldID(name, n-1)
		ctx.Defer(func(app.Context) {
			if el := app.Window().GetElementByID(id); el.Truthy() {
				el.Call("focus")
			}
		})
		f.Changed(ctx)
	})
}

// onFormRemove removes a row of a list field (a value, or one of several files).
func (f ParamFields) onFormRemove(ctx app.Context, e app.Event) {
	name, i := formTarget(ctx)
	ctx.Dispatch(func(ctx app.Context) {
		form := f.Form()
		form.State.RemoveFormItem(form.Body(), name, i)
		f.Changed(ctx)
	})
}

// onFormClear leaves a field out of the body (and drops its files).
func (f ParamFields) onFormClear(ctx app.Context, e app.Event) {
	name, _ := formTarget(ctx)
	ctx.Dispatch(func(ctx app.Context) {
		form := f.Form()
		form.State.ClearFormField(form.Body(), name)
		f.Changed(ctx)
	})
}

// onTextBodyInput sets a text, XML or raw body as typed.
func (f ParamFields) onTextBodyInput(ctx app.Context, e app.Event) {
	text := ctx.JSSrc().Get("value").String()
	ctx.Dispatch(func(ctx app.Context) {
		form := f.Form()
		form.State.Body = text
		form.State.Files = nil
		f.Changed(ctx)
	})
}
