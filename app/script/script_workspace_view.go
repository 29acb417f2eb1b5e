package script

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/ui"
)

// This file renders the script workspace (script_workspace.go holds its state and actions).

// Render implements app.Composer.
func (w *scriptWorkspace) Render() app.UI {
	return app.Div().Class("page script-workspace").Body(
		app.Header().Class("page-head").Body(
			app.P().Class("crumbs").Body(app.A().Href(ui.Href("/")).Text("APIs"), app.Text(" / "),
				app.A().Href(ui.Href("/script")).Text(w.API.Title), app.Text(" / ")),
			app.H1().Text("Workspace"),
			app.P().Class("lede").Text("Edit a project's files, save, version, deploy and run its functions. "+
				"Each button sends one documented operation through /proxy/script; the requests are listed below."),
		),
		app.Form().Class("ws-open").OnSubmit(w.onOpen).Body(
			app.Label().For("ws-script-id").Text("Script ID"),
			app.Input().ID("ws-script-id").Class("input mono").Value(w.scriptID).Spellcheck(false).OnChange(w.onScriptID),
			app.Button().ID("ws-open").Type("submit").Class("btn").Disabled(w.busy != "").Text("Open"), // a call under way would drop it
			app.If(w.busy != "", func() app.UI { return app.Span().ID("ws-busy").Class("muted").Aria("live", "polite").Text(w.busy) }),
		),
		app.Form().Class("ws-open").OnSubmit(w.onCreate).Body(
			app.Label().For("ws-title").Text("or a new project titled"),
			app.Input().ID("ws-title").Class("input").Value(w.title).Placeholder("Untitled project").OnChange(w.onTitle),
			app.Button().ID("ws-create").Type("submit").Class("btn").Disabled(w.busy != "").Text("Create"),
		),
		app.Div().Class("ws-grid").Body(
			w.renderFiles(),
			w.renderEditor(),
		),
		w.renderRun(),
		w.renderOutcome(),
		w.renderProcesses(),
		w.renderCalls(),
	)
}

// renderFiles lists the project's files; the one in the editor is marked current.
func (w *scriptWorkspace) renderFiles() app.UI {
	var items []app.UI
	for i, f := range w.files {
		items = append(items, app.Li().Body(
			app.Button().Type("button").Class("ws-file btn-link").Aria("current", ui.BoolAttr(i == w.current)).
				DataSet("file", f.Name).DataSet("index", i).OnClick(w.onPickFile).Body(
				app.Span().Class("mono").Text(f.Name), app.Span().Class("field-type").Text(" "+f.Type)),
		))
	}
	return app.Nav().Class("ws-files").Aria("label", "Files").Body(
		app.H2().Text("Files"),
		app.Ul().Body(items...),
		app.Form().Class("ws-add").OnSubmit(w.onAddFile).Body(
			app.Label().For("ws-new-file").Class("visually-hidden").Text("New file name"),
			app.Input().ID("ws-new-file").Class("input mono").Placeholder("New file name").Value(w.newName).OnChange(w.onNewName),
			app.Label().For("ws-new-type").Class("visually-hidden").Text("New file type"),
			app.Select().ID("ws-new-type").Class("input").OnChange(w.onNewType).Body(
				app.Option().Value("SERVER_JS").Selected(w.newType == "SERVER_JS").Text("Server code"),
				app.Option().Value("HTML").Selected(w.newType == "HTML").Text("HTML"),
			),
			app.Button().ID("ws-add-file").Type("submit").Class("btn").Text("Add file"),
		),
	)
}

// renderEditor shows the current file in the code editor and the save, version and deploy
// actions.
func (w *scriptWorkspace) renderEditor() app.UI {
	if w.current >= len(w.files) {
		return app.Div().Class("ws-editor muted").Text("Open a project to see its files.")
	}
	f := w.files[w.current]
	lint, linted := w.lintOf(f.Name)
	errLine := 0
	switch {
	case w.errLine > 0 && w.errFile == f.Name:
		errLine = w.errLine
	case linted:
		errLine = lint.line
	}
	return app.Div().Class("ws-editor").Body(
		app.Div().Class("field-head").Body(
			app.Label().For("ws-editor").Class("field-name").Text(f.Name),
			app.Code().Class("field-type").Text(f.Type),
		),
		w.renderCode(f, errLine, "ws-save-error ws-lint"),
		w.renderProblems(f),
		app.P().Class("editor-keys field-help").Text("Tab indents, Shift+Tab outdents; Esc then Tab leaves the editor."),
		app.Div().Class("ws-actions").Body(
			app.Button().ID("ws-save").Type("button").Class("btn btn-primary").Disabled(w.busy != "").Text("Save").OnClick(w.onSave),
			app.Button().ID("ws-version").Type("button").Class("btn").Disabled(w.busy != "").Text("New version").OnClick(w.onVersion),
			app.Button().ID("ws-deploy").Type("button").Class("btn").Disabled(w.version == 0 || w.busy != "").
				Title("Deploys the last version made here").Text(deployLabel(w.version)).OnClick(w.onDeploy),
		),
	)
}

// deployLabel names the version Deploy deploys.
func deployLabel(v int) string {
	if v == 0 {
		return "Deploy"
	}
	return "Deploy version " + ui.Itoa(v)
}

// renderRun is the run form: the function, a JSON field per parameter, devMode.
func (w *scriptWorkspace) renderRun() app.UI {
	var opts []app.UI
	for _, f := range w.functions() {
		opts = append(opts, app.Option().Value(f.Name).Selected(f.Name == w.fn).Text(f.Name+"("+strings.Join(f.Parameters, ", ")+")"))
	}
	var fields []app.UI
	if fn := w.function(); fn != nil {
		for i, name := range fn.Parameters {
			key, id := fn.Name+"/"+name, "ws-arg-"+ui.Itoa(i)
			fields = append(fields, app.Div().Class("field").Body(
				app.Label().For(id).Class("field-name mono").Text(name),
				app.Input().ID(id).Class("input mono").Placeholder(`JSON, e.g. "text", 3 or [1, 2]`).
					Value(w.args[key]).DataSet("key", key).OnInput(w.onArg),
			))
		}
	}
	return app.Form().Class("ws-run params").OnSubmit(w.onRun).Body(
		app.H2().Text("Run"),
		app.Div().Class("field").Body(
			app.Label().For("ws-function").Class("field-name").Text("Function"),
			app.Select().ID("ws-function").Class("input").OnChange(w.onFunction).Body(opts...),
		),
		app.Div().Body(fields...),
		app.Label().Class("check").Body(
			app.Input().ID("ws-devmode").Type("checkbox").Checked(w.devMode).OnChange(w.onDevMode),
			app.Text(" devMode (run the saved files, not the deployed version)"),
		),
		app.If(w.argErr != "", func() app.UI { return app.P().ID("ws-arg-error").Class("field-error").Role("alert").Text(w.argErr) }),
		app.Button().ID("ws-run").Type("submit").Class("btn btn-primary").Disabled(w.busy != "").Text("Run"),
	)
}

// renderProcesses lists the project's latest processes.
func (w *scriptWorkspace) renderProcesses() app.UI {
	var rows []app.UI
	for _, p := range w.procs {
		rows = append(rows, app.Tr().Body(app.Td().Class("mono").Text(p.FunctionName), app.Td().Text(p.ProcessStatus),
			app.Td().Text(p.ProcessType), app.Td().Class("mono").Text(p.StartTime), app.Td().Class("mono").Text(p.Duration)))
	}
	return app.Section().Class("ws-processes").Aria("label", "Processes").Body(
		app.H2().Body(app.Text("Processes "), app.Button().Type("button").Class("btn-link").Disabled(w.busy != "").Text("Refresh").OnClick(w.onProcesses)),
		app.Table().ID("ws-processes").Body(
			app.THead().Body(app.Tr().Body(app.Th().Text("Function"), app.Th().Text("Status"), app.Th().Text("Type"),
				app.Th().Text("Started"), app.Th().Text("Duration"))),
			app.TBody().Body(rows...),
		),
	)
}

// renderCalls shows the requests the workspace sent, newest first, each with its answer.
func (w *scriptWorkspace) renderCalls() app.UI {
	var items []app.UI
	for i, c := range w.calls {
		status := ui.Itoa(c.Status)
		if c.Status == 0 {
			status = "failed"
		}
		items = append(items, app.Li().Class("ws-call").Body(
			app.Details().Open(i == 0).Body(
				app.Summary().Body(app.Code().Class("ws-call-line").Text(c.Method+" "+c.URL), app.Text(" "),
					app.Span().Class("muted").Text(c.Operation+" → "+status)),
				app.If(c.Body != "", func() app.UI { return app.Pre().Class("mono ws-call-body").Text(c.Body) }),
				app.If(c.Err != "", func() app.UI { return app.P().Class("field-error").Text(c.Err) }),
				app.Pre().Class("mono ws-call-answer").Text(c.pretty()),
			),
		))
	}
	return app.Section().Class("ws-calls").Aria("label", "Requests sent").Body(
		app.H2().Text("Requests sent"),
		app.Ol().ID("ws-calls").Body(items...),
	)
}
