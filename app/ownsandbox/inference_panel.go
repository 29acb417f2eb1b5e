package ownsandbox

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

func init() {
	ui.AddAPISection(ui.APISection{Rank: -5, Render: func(cat *catalog.Catalog, a *catalog.API) app.UI {
		if !answersFromDocument(a) {
			return nil
		}
		return newInferencePanel(a)
	}})
}

// answersFromDocument reports whether the page's API is answered by the sandbox built from its
// document: an API of your own the server marked so, or any API of your own in the static
// explorer, whose sandbox module answers them all.
func answersFromDocument(a *catalog.API) bool { return a.Own && (a.OwnSandbox || ui.StaticMode()) }

// inferencePanel is the section of an API of your own's page that says what its sandbox
// inferred of the document: the collections it keeps, the operations answered from the document
// alone and the hints it followed.
type inferencePanel struct {
	app.Compo

	// API is the page's API.
	API *catalog.API

	inf *catalog.SandboxInference // nil until it is read
	err string                    // why it could not be read
}

func newInferencePanel(a *catalog.API) *inferencePanel { return &inferencePanel{API: a} }

// OnMount asks the sandbox what it inferred.
func (p *inferencePanel) OnMount(ctx app.Context) {
	slug := p.API.Slug
	ctx.Async(func() {
		inf, err := fetchInference(slug)
		ctx.Dispatch(func(ctx app.Context) {
			p.inf, p.err = inf, ""
			if err != nil {
				p.err = "The sandbox could not say what it inferred of the document: " + err.Error()
			}
		})
	})
}

// Render implements app.Composer.
func (p *inferencePanel) Render() app.UI {
	body := []app.UI{
		app.H2().ID("sandbox-inference-title").Text("What the sandbox keeps"),
		app.P().Class("lede").Text("This API answers from a sandbox built from its document alone: each request is checked " +
			"against the document, and answers come from its examples or from values made from its schemas. " +
			"The collections below keep what you create and change (you alone see it, until Reset); " +
			"every other operation answers the same whatever you did before."),
	}
	switch {
	case p.err != "":
		body = append(body, app.P().ID("sandbox-inference-error").Class("form-status").Role("alert").Text(p.err))
	case p.inf == nil:
		body = append(body, app.P().ID("sandbox-inference-loading").Class("muted").Role("status").Text("Asking the sandbox what it inferred…"))
	default:
		body = append(body, inferenceView(p.API, p.inf)...)
	}
	return app.Section().ID("sandbox-inference").Class("sandbox-inference").Aria("labelledby", "sandbox-inference-title").Body(body...)
}
