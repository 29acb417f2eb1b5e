package walkthrough

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// maxFile bounds a walkthrough file opened in the browser, as the service does.
const maxFile = 4 << 20

// walkFilePage runs an Arazzo document opened in the browser (/walkthroughs): a file picked,
// a document pasted, or one the history recorded. The service loads it with the same loader
// as the configuration's walkthroughs; a document that does not load shows each problem at its
// line, with the lines around it, and nothing is sent; one that loads runs in the walkthrough
// runner, each request posting the document with it.
type walkFilePage struct {
	app.Compo

	// Cat is the catalog the steps' operations are found in.
	Cat *catalog.Catalog

	file     *ui.WalkFile
	paste    string
	checking bool
	walk     *catalog.Walkthrough
	problems []catalog.WalkProblem
	err      string
}

func newWalkFilePage(cat *catalog.Catalog) *walkFilePage { return &walkFilePage{Cat: cat} }

// OnMount opens the file this tab opened last (or the history recorded).
func (p *walkFilePage) OnMount(ctx app.Context) {
	if f, ok := ui.LoadWalkFile(); ok && p.file == nil {
		p.open(ctx, f)
	}
}

// open checks a document and, when it loads, runs it.
func (p *walkFilePage) open(ctx app.Context, f ui.WalkFile) {
	if len(f.Text) > maxFile {
		p.err = "The file is larger than 4 MiB: a walkthrough this large is not one a person follows."
		return
	}
	p.file, p.walk, p.problems, p.err, p.checking = &f, nil, nil, "", true
	if !ui.SaveWalkFile(f) {
		p.err = "This browser would not keep the file for the session (its storage is full or off): it runs until the page is left."
	}
	ctx.Async(func() {
		cctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		ans, err := checkDocument(cctx, f)
		ctx.Dispatch(func(ctx app.Context) {
			if p.file == nil || p.file.Text != f.Text {
				return // another file was opened meanwhile
			}
			p.checking = false
			switch {
			case err != nil:
				p.err = err.Error()
			case ans.Error != "":
				p.err = ans.Error
			case len(ans.Problems) > 0:
				p.problems = ans.Problems
				ctx.Defer(func(app.Context) { ui.FocusByID("walk-problems") })
			default:
				p.walk = ans.Walkthrough
			}
		})
	})
}

// onPick reads the file picked.
func (p *walkFilePage) onPick(ctx app.Context, e app.Event) {
	files := ctx.JSSrc().Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	file := files.Index(0)
	name := file.Get("name").String()
	if size := file.Get("size").Int(); size > maxFile {
		p.err = "“" + name + "” is larger than 4 MiB: a walkthrough this large is not one a person follows."
		return
	}
	var then, fail app.Func
	release := func() { then.Release(); fail.Release() }
	then = app.FuncOf(func(_ app.Value, args []app.Value) any {
		text := args[0].String()
		ctx.Dispatch(func(ctx app.Context) { p.open(ctx, ui.WalkFile{Name: name, Text: text}) })
		release()
		return nil
	})
	fail = app.FuncOf(func(_ app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) {
			p.err = "“" + name + "” could not be read: " + args[0].Call("toString").String()
		})
		release()
		return nil
	})
	file.Call("text").Call("then", then, fail)
}

func (p *walkFilePage) onPaste(ctx app.Context, e app.Event) {
	p.paste = ctx.JSSrc().Get("value").String()
}

// onOpenPasted opens the document pasted.
func (p *walkFilePage) onOpenPasted(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if strings.TrimSpace(p.paste) == "" {
		p.err = "Paste an Arazzo document (YAML or JSON) first."
		return
	}
	p.open(ctx, ui.WalkFile{Name: "pasted.arazzo.yaml", Text: p.paste})
}

// Render implements app.Composer.
func (p *walkFilePage) Render() app.UI {
	head := app.Header().Class("page-head").Body(
		app.P().Class("crumbs").Body(app.A().Href(ui.Href("/")).Text("APIs"), app.Text(" / walkthrough file")),
		app.H1().Text("Run a walkthrough file"),
		app.P().Class("lede").Text("Open an Arazzo document (.arazzo.yaml or .arazzo.json): one you wrote, one shared with you, or one the history recorded. "+
			"Loupe checks it as it checks the walkthroughs of its configuration, and shows each problem at its line before any request is sent."),
	)
	picker := app.Form().ID("walk-file-form").Class("walk-file-form").OnSubmit(p.onOpenPasted).Body(
		app.Div().Class("field").Body(
			app.Label().For("walk-file-input").Class("field-name").Text("Open a file"),
			app.Input().ID("walk-file-input").Type("file").Accept(".yaml,.yml,.json,application/yaml,application/json").OnChange(p.onPick),
		),
		app.Details().Class("walk-file-paste").Body(
			app.Summary().Text("or paste a document"),
			app.Label().For("walk-file-text").Class("visually-hidden").Text("The Arazzo document"),
			app.Textarea().ID("walk-file-text").Class("input mono").Rows(12).Attr("spellcheck", "false").Text(p.paste).OnInput(p.onPaste),
			app.Button().ID("walk-file-open").Type("submit").Class("btn").Text("Open"),
		),
	)
	// Every part keeps its place whether it shows or not: go-app drops the answers of a
	// request started by an element it replaced (the file input's, here), and a part that
	// came and went before the input would shift it and have it replaced.
	status := app.P().ID("walk-file-status").Class("muted").Role("status").Hidden(true)
	switch {
	case p.checking:
		status = app.P().ID("walk-file-status").Class("muted").Role("status").Text("Checking " + p.file.Name + "…")
	case p.err != "":
		status = app.P().ID("walk-file-status").Class("field-error").Role("alert").Text(p.err)
	}
	var body app.UI
	switch {
	case len(p.problems) > 0:
		body = p.renderProblems()
	case p.walk != nil:
		body = newWalkthroughPage(p.walk, p.Cat, p.file)
	}
	return app.Div().Class("page walk-file-page").Body(
		head.Hidden(p.walk != nil), // the walkthrough's own heading replaces it
		picker,
		status,
		app.If(p.file != nil && !p.checking, func() app.UI { return p.renderFileLinks() }),
		body,
	)
}

// renderFileLinks offers the document for download, as it was opened.
func (p *walkFilePage) renderFileLinks() app.UI {
	return app.P().Class("walk-file-links muted").Body(
		app.Text("The document: "),
		app.A().ID("walk-file-download").Href("data:application/yaml;charset=utf-8,"+url.PathEscape(p.file.Text)).
			Attr("download", p.file.Name).Text("download "+p.file.Name),
		app.Text(", then run it with "), app.Code().Text("loupe walk "+p.file.Name),
		app.Text(" or any Arazzo runner."),
	)
}

// renderProblems lists a document's problems, each at its line with the lines around it.
func (p *walkFilePage) renderProblems() app.UI {
	lines := strings.Split(p.file.Text, "\n")
	var items []app.UI
	for _, pr := range p.problems {
		items = append(items, app.Li().Class("walk-problem").Body(
			app.P().Body(app.Strong().Class("walk-problem-at").Text(strings.TrimSuffix(where(pr), ": ")), app.Text(" "+pr.Message)),
			excerpt(lines, pr.Line),
		))
	}
	return app.Section().ID("walk-problems").Class("walk-problems").TabIndex(-1).Aria("label", "Problems").Body(
		app.H2().Text(ui.Plural(len(p.problems), "problem", "problems")+" in "+p.file.Name),
		app.P().Class("muted").Text("Nothing was sent. Fix each problem at its line, then open the file again."),
		app.Ol().Body(items...),
	)
}

// excerpt shows the lines around line (1-based) of a document, that line marked.
func excerpt(lines []string, line int) app.UI {
	if line <= 0 || line > len(lines) {
		return nil
	}
	var rows []app.UI
	for n := max(1, line-2); n <= min(len(lines), line+2); n++ {
		cls := "walk-line"
		if n == line {
			cls += " walk-line-at"
		}
		rows = append(rows, app.Span().Class(cls).Body(
			app.Span().Class("walk-line-num").Aria("hidden", "true").Text(ui.Itoa(n)),
			app.Text(lines[n-1]+"\n"),
		))
	}
	return app.Pre().Class("walk-excerpt").Body(rows...)
}
