package script

import (
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// WorkspaceOpID is the route of the script workspace under the script API: /script/workspace.
const WorkspaceOpID = "workspace"

func init() {
	ui.AddAPIPage(ui.APIPage{API: "script", ID: WorkspaceOpID, Label: "Workspace: edit and run code",
		Render: func(a *catalog.API) app.UI { return newScriptWorkspace(a) }})
	ui.AddAPISection(ui.APISection{Rank: -10, Render: workspacePromo})
}

// workspacePromo is the script API's page's link to the workspace; nil on another API's page.
func workspacePromo(cat *catalog.Catalog, a *catalog.API) app.UI {
	if a.Slug != "script" {
		return nil
	}
	return app.P().Class("ws-promo").Body(app.A().ID("open-workspace").Class("btn").Href(ui.Href("/script/"+WorkspaceOpID)).Text("Open the workspace"),
		app.Text(" to edit a project's code, run its functions and follow their stack traces."))
}

// exampleScriptID is the documented example project of the script API, opened first.
const exampleScriptID = "1qvD3r1OzRDGF_lHoS8HkAyJtK9gP3kVhDjK5xXzDgBm2bN3eRIqLkHzE"

// scriptWorkspace is the script API's workspace: open a project, edit its files, save, make a
// version, deploy it, run a function with its parameters and see the result or the error's
// stack (each frame puts the cursor on its line), the logs and the project's processes. Every
// action is a documented operation sent through the proxy and shown as the request it sent.
type scriptWorkspace struct {
	app.Compo

	// API is the script API of the catalog.
	API *catalog.API

	scriptID string
	title    string // of a new project
	newName  string // of a new file
	newType  string // of a new file: SERVER_JS or HTML
	files    []wsFile
	current  int               // index of the file in the editor
	fn       string            // the function to run
	args     map[string]string // JSON text of each parameter, by "function/name"
	argErr   string
	saveErr  string // why the last save was refused
	errLine  int    // the line of a refused save's syntax error in errFile (0: none)
	errFile  string
	lint     wsLint // the last syntax check of a server file (script_workspace_check.go)
	lintSeq  int    // counts edits, so a check of an older text is dropped
	devMode  bool
	version  int // the last version made here, for Deploy
	busy     string
	calls    []*scriptCall // newest first
	run      *scriptCall   // the last scripts.run
	procs    []wsProcess
}

func newScriptWorkspace(a *catalog.API) *scriptWorkspace {
	return &scriptWorkspace{API: a, scriptID: exampleScriptID, devMode: true, args: map[string]string{}, newType: "SERVER_JS"}
}

// OnMount opens the example project.
func (w *scriptWorkspace) OnMount(ctx app.Context) { w.open(ctx) }

// do sends one operation in the background, records it, then applies then to it.
func (w *scriptWorkspace) do(ctx app.Context, label, op, method, path string, q url.Values, body any, then func(ctx app.Context, c *scriptCall)) {
	if w.busy != "" {
		return
	}
	w.busy = label
	ctx.Async(func() {
		start := time.Now()
		c := callScript(op, method, path, q, body)
		took := time.Since(start)
		ctx.Dispatch(func(ctx app.Context) {
			recordScriptCall(ctx, w.API, c, took)
			w.busy = ""
			w.calls = append([]*scriptCall{c}, w.calls...)
			if len(w.calls) > 12 {
				w.calls = w.calls[:12]
			}
			if then != nil {
				then(ctx, c)
			}
		})
	})
}

// projectPath is the path of the open project's resource, plus suffix.
func (w *scriptWorkspace) projectPath(suffix string) string {
	return "/v1/projects/" + url.PathEscape(w.scriptID) + suffix
}

// open reads the project's files with projects.getContent, then its processes.
func (w *scriptWorkspace) open(ctx app.Context) {
	w.do(ctx, "Opening…", "projects.getContent", "GET", w.projectPath("/content"), nil, nil, func(ctx app.Context, c *scriptCall) {
		var content wsContent
		if c.decode(&content) {
			w.setFiles(content.Files)
			w.current, w.run, w.saveErr, w.errLine, w.lint = 0, nil, "", 0, wsLint{}
			for i, f := range w.files {
				if f.Type == "SERVER_JS" {
					w.current = i
					break
				}
			}
			w.refreshProcesses(ctx)
		}
	})
}

// setFiles takes the files of a getContent or updateContent answer and keeps the function to
// run when it still exists.
func (w *scriptWorkspace) setFiles(files []wsFile) {
	w.files = files
	fns := w.functions()
	for _, f := range fns {
		if f.Name == w.fn {
			return
		}
	}
	w.fn = ""
	if len(fns) > 0 {
		w.fn = fns[0].Name
	}
}

// functions lists the functions the server found in the server files, in file order.
func (w *scriptWorkspace) functions() []wsFunction {
	var out []wsFunction
	for _, f := range w.files {
		if f.FunctionSet != nil {
			out = append(out, f.FunctionSet.Values...)
		}
	}
	return out
}

// function returns the function to run, or nil.
func (w *scriptWorkspace) function() *wsFunction {
	for _, f := range w.functions() {
		if f.Name == w.fn {
			return &f
		}
	}
	return nil
}

func (w *scriptWorkspace) onScriptID(ctx app.Context, e app.Event) {
	w.scriptID = strings.TrimSpace(ctx.JSSrc().Get("value").String())
}

func (w *scriptWorkspace) onTitle(ctx app.Context, e app.Event) {
	w.title = ctx.JSSrc().Get("value").String()
}

// onCreate makes a new project (projects.create) and opens it.
func (w *scriptWorkspace) onCreate(ctx app.Context, e app.Event) {
	e.PreventDefault()
	title := strings.TrimSpace(w.title)
	if title == "" {
		title = "Untitled project"
	}
	w.do(ctx, "Creating…", "projects.create", "POST", "/v1/projects", nil, map[string]any{"title": title}, func(ctx app.Context, c *scriptCall) {
		var p struct {
			ScriptID string `json:"scriptId"`
		}
		if c.decode(&p) && p.ScriptID != "" {
			w.scriptID, w.version = p.ScriptID, 0
			w.open(ctx)
		}
	})
}

func (w *scriptWorkspace) onNewName(ctx app.Context, e app.Event) {
	w.newName = strings.TrimSpace(ctx.JSSrc().Get("value").String())
}

func (w *scriptWorkspace) onNewType(ctx app.Context, e app.Event) {
	w.newType = ctx.JSSrc().Get("value").String()
}

// onAddFile adds a file to the editor's files (saved with the others by Save) and shows it.
func (w *scriptWorkspace) onAddFile(ctx app.Context, e app.Event) {
	e.PreventDefault()
	name := w.newName
	if name == "" {
		name = "Code"
	}
	for i, f := range w.files {
		if f.Name == name && f.Type == w.newType {
			w.current = i
			return
		}
	}
	src := "function myFunction() {\n  \n}\n"
	if w.newType == "HTML" {
		src = "<!DOCTYPE html>\n<html>\n  <body>\n  </body>\n</html>\n"
	}
	w.files = append(w.files, wsFile{Name: name, Type: w.newType, Source: src})
	w.current, w.newName = len(w.files)-1, ""
}

func (w *scriptWorkspace) onOpen(ctx app.Context, e app.Event) {
	e.PreventDefault()
	w.open(ctx)
}

// go-app keeps an element's first handler when a new one comes from the same function
// literal, so the handlers below read what they act on from the element's data attributes,
// never from a closure.

// onPickFile shows the file of the button's data-index in the editor.
func (w *scriptWorkspace) onPickFile(ctx app.Context, e app.Event) {
	if i := atoiOr(ctx.JSSrc().Get("dataset").Get("index").String(), -1); i >= 0 && i < len(w.files) {
		w.current = i
	}
}

func (w *scriptWorkspace) onEdit(ctx app.Context, e app.Event) {
	if w.current < len(w.files) {
		w.files[w.current].Source = ctx.JSSrc().Get("value").String()
		w.scheduleCheck(ctx)
	}
}

// onSave replaces the project's files with the editor's (projects.updateContent).
func (w *scriptWorkspace) onSave(ctx app.Context, e app.Event) {
	files := make([]sendFile, len(w.files))
	for i, f := range w.files {
		files[i] = sendFile{Name: f.Name, Type: f.Type, Source: f.Source}
	}
	w.do(ctx, "Saving…", "projects.updateContent", "PUT", w.projectPath("/content"), nil,
		map[string]any{"scriptId": w.scriptID, "files": files}, func(ctx app.Context, c *scriptCall) {
			var content wsContent
			w.saveErr, w.errLine, w.errFile = "", 0, ""
			if !c.decode(&content) {
				w.saveErr = c.Err
				w.markSyntaxError(ctx, c.Err)
				return
			}
			cur := w.current
			w.setFiles(content.Files)
			w.current = min(cur, len(w.files)-1)
		})
}

// markSyntaxError puts the cursor on the line of a refused save ("… line: N file: NAME").
func (w *scriptWorkspace) markSyntaxError(ctx app.Context, msg string) {
	_, rest, ok := strings.Cut(msg, " line: ")
	if !ok {
		return
	}
	num, name, _ := strings.Cut(rest, " file: ")
	for i, f := range w.files {
		if f.Name == name {
			w.current, w.errLine, w.errFile = i, atoiOr(num, 0), name
			w.moveCursor(ctx, w.errLine)
		}
	}
}

// onVersion makes a version of the saved files (projects.versions.create).
func (w *scriptWorkspace) onVersion(ctx app.Context, e app.Event) {
	w.do(ctx, "Making a version…", "projects.versions.create", "POST", w.projectPath("/versions"), nil,
		map[string]any{"description": "Made in the workspace"}, func(ctx app.Context, c *scriptCall) {
			var v struct {
				VersionNumber int `json:"versionNumber"`
			}
			if c.decode(&v) {
				w.version = v.VersionNumber
			}
		})
}

// onDeploy deploys the last version made here (projects.deployments.create).
func (w *scriptWorkspace) onDeploy(ctx app.Context, e app.Event) {
	w.do(ctx, "Deploying…", "projects.deployments.create", "POST", w.projectPath("/deployments"), nil,
		map[string]any{"versionNumber": w.version, "manifestFileName": "appsscript", "description": "Deployed from the workspace"}, nil)
}

func (w *scriptWorkspace) onFunction(ctx app.Context, e app.Event) {
	w.fn = ctx.JSSrc().Get("value").String()
	w.argErr = ""
}

// onArg keeps the JSON text of the parameter named by the field's data-key.
func (w *scriptWorkspace) onArg(ctx app.Context, e app.Event) {
	w.args[ctx.JSSrc().Get("dataset").Get("key").String()] = ctx.JSSrc().Get("value").String()
}

func (w *scriptWorkspace) onDevMode(ctx app.Context, e app.Event) {
	w.devMode = ctx.JSSrc().Get("checked").Bool()
}

// onRun runs the function with its parameters (scripts.run), then lists the processes.
func (w *scriptWorkspace) onRun(ctx app.Context, e app.Event) {
	e.PreventDefault()
	fn := w.function()
	if fn == nil {
		w.argErr = "Save a server file that declares a function first."
		return
	}
	params := []any{}
	for _, name := range fn.Parameters {
		text := strings.TrimSpace(w.args[fn.Name+"/"+name])
		if text == "" {
			text = "null"
		}
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			w.argErr = "The value of " + name + " is not JSON (write strings in double quotes): " + err.Error()
			return
		}
		params = append(params, v)
	}
	w.argErr = ""
	w.do(ctx, "Running…", "scripts.run", "POST", "/v1/scripts/"+url.PathEscape(w.scriptID)+":run", nil,
		map[string]any{"function": fn.Name, "parameters": params, "devMode": w.devMode}, func(ctx app.Context, c *scriptCall) {
			w.run = c
			w.refreshProcesses(ctx)
		})
}

// refreshProcesses lists the project's latest processes (processes.listScriptProcesses).
func (w *scriptWorkspace) refreshProcesses(ctx app.Context) {
	q := url.Values{"scriptId": {w.scriptID}, "pageSize": {"5"}}
	w.do(ctx, "Listing processes…", "processes.listScriptProcesses", "GET", "/v1/processes:listScriptProcesses", q, nil,
		func(ctx app.Context, c *scriptCall) {
			var list struct {
				Processes []wsProcess `json:"processes"`
			}
			if c.decode(&list) {
				w.procs = list.Processes
			}
		})
}

func (w *scriptWorkspace) onProcesses(ctx app.Context, e app.Event) { w.refreshProcesses(ctx) }

// onErrorLine puts the cursor back on the line of the refused save's syntax error.
func (w *scriptWorkspace) onErrorLine(ctx app.Context, e app.Event) {
	for i, f := range w.files {
		if f.Name == w.errFile {
			w.current = i
			w.moveCursor(ctx, w.errLine)
		}
	}
}

// onFrame opens the file that declares the frame's function (data-function) and puts the
// cursor on its line (data-line).
func (w *scriptWorkspace) onFrame(ctx app.Context, e app.Event) {
	data := ctx.JSSrc().Get("dataset")
	name := data.Get("function").String()
	for i, file := range w.files {
		if file.FunctionSet == nil {
			continue
		}
		for _, fn := range file.FunctionSet.Values {
			if fn.Name == name {
				w.current = i
			}
		}
	}
	w.moveCursor(ctx, atoiOr(data.Get("line").String(), 0))
}
