package op

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/app/ui"
)

// This file renders the file pickers of a body (a multipart field's file or files, a binary
// body's file) and reads the chosen files with the browser's FileReader. A link names a file
// but never carries it: a field whose file is named but not held says to choose it again.

// maxFileBytes bounds a file read into the page to be sent.
const maxFileBytes = 64 << 20

// binaryField is the data-field of a binary body's file picker.
const binaryField = "$body"

// renderFileField renders a multipart field's file picker and the files it holds.
func (f ParamFields) renderFileField(fld request.FormField, describedBy string, invalid bool) app.UI {
	form := f.Form()
	var chosen []app.UI
	for i, name := range fld.Values {
		index := i
		if !fld.List {
			index = -1
		}
		chosen = append(chosen, app.Li().Class("file-chosen").Body(
			f.fileLine(form, request.FilePointer(fld.Name, index), name, fld.Named[i]),
			app.Button().Type("button").Class("btn-icon").DataSet("field", fld.Name).DataSet("index", i).
				Aria("label", "Remove "+name+" from "+fld.Name).Title("Remove").Text("×").
				OnClick(f.fileRemover(fld)),
		))
	}
	label := "Choose file…"
	if fld.List {
		label = "Choose files…"
	}
	return f.filePicker(fld.Name, bodyFieldID(fld.Name, 0), label, acceptOf(form.Body(), fld), fld.List, describedBy, invalid,
		app.If(len(chosen) > 0, func() app.UI { return app.Ul().Class("files-chosen").Body(chosen...) }))
}

// fileRemover returns the handler of a chosen file's remove button: a row of several files,
// or the field's one file.
func (f ParamFields) fileRemover(fld request.FormField) app.EventHandler {
	if fld.List {
		return f.onFormRemove
	}
	return f.onFormClear
}

// renderFileBody renders a binary body as a file picker.
func (f ParamFields) renderFileBody() app.UI {
	form := f.Form()
	b := form.Body()
	name, named := request.FileRefName(form.State.Body)
	invalid := len(form.BodyErrs) > 0
	var errs []string
	for _, e := range form.BodyErrs {
		errs = append(errs, e.Message)
	}
	accept := ""
	if ct := strings.TrimSpace(b.ContentType); ct != "application/octet-stream" && ct != "*/*" {
		accept = ct
	}
	return app.FieldSet().ID("body-form").Class("params body body-file").Body(
		bodyLegend(b),
		app.Div().Class(fieldClass(invalid)).DataSet("param", "body").Body(
			app.Div().Class("field-head").Body(
				app.Label().For("body-file").Class("field-name").Text("File"),
				f.renderBodyType(b),
				app.Span().Class("muted").Text("the file's bytes are the body"),
			),
			f.filePicker(binaryField, "body-file", "Choose file…", accept, false, "body-error", invalid,
				app.If(named, func() app.UI {
					return app.P().Class("file-chosen").Body(f.fileLine(form, "", name, true))
				})),
			ui.HTML("prose small", b.DescriptionHTML),
			app.Div().ID("body-error").Class("field-error").Text(strings.Join(errs, "; ")),
		),
	)
}

// filePicker renders a file input behind a button-like label, with what is chosen after it.
func (f ParamFields) filePicker(field, id, label, accept string, multiple bool, describedBy string, invalid bool, chosen app.UI) app.UI {
	form := f.Form()
	return app.Div().Class("file-field").Body(
		app.Label().Class("btn btn-small file-pick").Body(
			app.Input().ID(id).Type("file").Class("visually-hidden").Accept(accept).Multiple(multiple).
				DataSet("field", field).Aria("describedby", describedBy).Aria("invalid", ui.BoolAttr(invalid)).
				OnChange(f.onFilesChosen),
			app.Text(label),
		),
		app.If(form.reading == field, func() app.UI { return app.Span().Class("muted").Role("status").Text("reading…") }),
		app.If(form.fileProblem[field] != "", func() app.UI {
			return app.Span().Class("field-error").Role("alert").Text(form.fileProblem[field])
		}),
		chosen,
	)
}

// fileLine says which file a value is: its name and size while the page holds it; else that
// the file must be chosen again (a link carried its name only), or that a value was given as
// text.
func (f ParamFields) fileLine(form *FormState, pointer, name string, named bool) app.UI {
	if !named {
		return app.Span().Class("file-name").Body(app.Text("text given as the file: "), app.Code().Text(ui.Shorten(name, 60)))
	}
	file, ok := form.State.Files[pointer]
	if !ok || file.Data == nil || file.Name != name {
		return app.Span().Class("file-name file-missing").Body(
			app.Code().Text(name), app.Text(" — choose this file again: a link names a file but does not carry it"))
	}
	meta := ui.HumanSize(len(file.Data))
	if file.Type != "" {
		meta += " · " + file.Type
	}
	return app.Span().Class("file-name").Body(app.Code().Text(name), app.Span().Class("muted").Text(" "+meta))
}

// acceptOf is a file field's accept attribute: the encoding's content types, else the schema's
// contentMediaType; "" accepts any file.
func acceptOf(b *catalog.RequestBody, fld request.FormField) string {
	if enc, ok := b.Encoding[fld.Name]; ok && enc.ContentType != "" {
		return enc.ContentType
	}
	if s := fld.Item(); s != nil && s.ContentMediaType != "" {
		return s.ContentMediaType
	}
	return ""
}

// onFilesChosen reads the files chosen in a file input (in ctx.Async, with FileReader), then
// gives them to the field, or makes the first the binary body.
func (f ParamFields) onFilesChosen(ctx app.Context, e app.Event) {
	input := ctx.JSSrc()
	field := input.Get("dataset").Get("field").String()
	list := input.Get("files")
	var picked []app.Value
	for i := 0; list.Truthy() && i < list.Length(); i++ {
		picked = append(picked, list.Index(i))
	}
	input.Set("value", "") // so that choosing the same file again fires change
	if len(picked) == 0 {
		return
	}
	for _, p := range picked {
		if size := p.Get("size").Int(); size > maxFileBytes {
			problem := p.Get("name").String() + " is " + ui.HumanSize(size) + "; files up to " +
				ui.HumanSize(maxFileBytes) + " can be sent from the browser."
			ctx.Dispatch(func(app.Context) { f.Form().setFileProblem(field, problem) })
			return
		}
	}
	ctx.Dispatch(func(app.Context) { f.Form().reading = field })
	ctx.Async(func() {
		files, problem := readFiles(picked)
		ctx.Dispatch(func(ctx app.Context) {
			form := f.Form()
			form.reading = ""
			form.setFileProblem(field, problem)
			if problem != "" {
				return
			}
			if field == binaryField {
				form.State.SetBodyFile(files[0])
			} else {
				form.State.SetFormFiles(form.Body(), field, files)
			}
			f.Changed(ctx)
		})
	})
}

// readFiles reads browser File objects with FileReader, one after the other. It blocks: call
// it in ctx.Async.
func readFiles(picked []app.Value) ([]request.File, string) {
	var out []request.File
	for _, p := range picked {
		name, typ := p.Get("name").String(), p.Get("type").String()
		done := make(chan bool, 1)
		reader := app.Window().Get("FileReader").New()
		onLoad := app.FuncOf(func(app.Value, []app.Value) any { done <- true; return nil })
		onError := app.FuncOf(func(app.Value, []app.Value) any { done <- false; return nil })
		reader.Set("onload", onLoad)
		reader.Set("onerror", onError)
		reader.Call("readAsArrayBuffer", p)
		ok := <-done
		onLoad.Release()
		onError.Release()
		if !ok {
			return nil, "Could not read " + name + "; choose it again."
		}
		u8 := app.Window().Get("Uint8Array").New(reader.Get("result"))
		data := make([]byte, u8.Length())
		app.CopyBytesToGo(data, u8)
		out = append(out, request.File{Name: name, Type: typ, Data: data})
	}
	return out, ""
}

// setFileProblem records (or, with "", clears) what went wrong choosing a field's file.
func (f *FormState) setFileProblem(field, problem string) {
	if problem == "" {
		delete(f.fileProblem, field)
		return
	}
	if f.fileProblem == nil {
		f.fileProblem = map[string]string{}
	}
	f.fileProblem[field] = problem
}

// fieldClass is a body field's class, marked invalid when it is.
func fieldClass(invalid bool) string {
	if invalid {
		return "field body-form-field invalid"
	}
	return "field body-form-field"
}
