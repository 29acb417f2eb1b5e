package ownsandbox

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// actionOrder is the order a collection's actions are listed in, with what each does.
var actionOrder = []struct{ kind, does string }{
	{"create", "adds an item"},
	{"read", "returns one item"},
	{"replace", "replaces an item"},
	{"update", "changes an item"},
	{"delete", "removes an item"},
	{"list", "lists the items"},
}

// inferenceView renders what the sandbox of a inferred: its collections, the operations
// answered from the document alone, the hints followed and the notes.
func inferenceView(a *catalog.API, inf *catalog.SandboxInference) []app.UI {
	var out []app.UI
	if len(inf.Resources) == 0 {
		out = append(out, app.P().ID("sandbox-no-collections").Text("No collection: the sandbox found no path it could keep items at "+
			"(such as POST /pets with GET /pets/{id}), so every operation answers from the document alone."))
	}
	for i := range inf.Resources {
		out = append(out, collectionView(a, &inf.Resources[i]))
	}
	out = append(out, statelessView(a, inf.Stateless), hintsView(a, inf.Hints))
	if len(inf.Notes) > 0 {
		var notes []app.UI
		for _, n := range inf.Notes {
			notes = append(notes, app.Li().Text(n))
		}
		out = append(out, app.Div().ID("sandbox-notes").Body(
			app.H3().Text("What the sandbox could not decide"), app.Ul().Body(notes...)))
	}
	return out
}

// collectionView renders one collection: its paths, id, seed, paging and filters, and the
// operations acting on it.
func collectionView(a *catalog.API, r *catalog.SandboxCollection) app.UI {
	facts := []app.UI{fact("Paths", pathsText(r)), fact("Id", idText(r)), fact("Starts with", seedText(r))}
	if r.Pagination != nil {
		facts = append(facts, fact("Pages", pagingText(r.Pagination)))
	}
	if len(r.Filters) > 0 {
		facts = append(facts, fact("Filters", strings.Join(r.Filters, ", ")))
	}
	facts = append(facts, fact("Decided by", sourceText(a.Slug, r.Source)))
	var rows []app.UI
	for _, act := range actionOrder {
		id, ok := r.Operations[act.kind]
		if !ok {
			continue
		}
		rows = append(rows, app.Tr().DataSet("action", act.kind).Body(
			app.Td().Body(app.Strong().Text(act.kind)),
			app.Td().Body(opLink(a, id)),
			app.Td().Text(act.does+wrapperText(r, act.kind)),
		))
	}
	var notes []app.UI
	for _, n := range r.Notes {
		notes = append(notes, app.Li().Text(n))
	}
	return app.Div().ID("sandbox-collection-"+r.Name).Class("sandbox-collection").DataSet("collection", r.Collection).Body(
		app.H3().Body(app.Text("Collection "), app.Code().Text(r.Name)),
		app.Dl().Class("facts").Body(facts...),
		app.If(len(rows) > 0, func() app.UI {
			return app.Table().Class("sandbox-actions").Body(
				app.THead().Body(app.Tr().Body(app.Th().Text("Action"), app.Th().Text("Operation"), app.Th().Text("What it does here"))),
				app.TBody().Body(rows...))
		}),
		app.If(len(notes) > 0, func() app.UI { return app.Ul().Class("sandbox-collection-notes").Body(notes...) }),
	)
}

// statelessView lists the operations answered from the document alone.
func statelessView(a *catalog.API, ids []string) app.UI {
	if len(ids) == 0 {
		return app.Div().ID("sandbox-stateless").Body(app.H3().Text("Answered from the document alone"),
			app.P().Text("None: every operation acts on a collection above."))
	}
	var items []app.UI
	for _, id := range ids {
		items = append(items, app.Li().Body(opLink(a, id)))
	}
	return app.Div().ID("sandbox-stateless").Body(
		app.H3().Text("Answered from the document alone"),
		app.P().Class("muted").Text(map[bool]string{true: "This operation keeps", false: "These operations keep"}[len(ids) == 1]+
			" nothing: each answers from the document's examples (Prefer: example=<name> picks one, Prefer: code=<n> a status) "+
			"or from values made from its schemas, the same for the same request."),
		app.Ul().Class("sandbox-stateless-list").Body(items...),
	)
}

// hintsView lists the hints followed, and says how to correct the inference.
func hintsView(a *catalog.API, hints []catalog.SandboxHint) app.UI {
	how := app.P().Class("muted").Body(
		app.Text("Where the sandbox guessed wrong, set "), app.Code().Text("x-loupe-sandbox"),
		app.Text(" in the document or "), app.Code().Text("apis."+a.Slug+".sandbox_hints"),
		app.Text(" in Loupe's configuration (resources, stateless, operations); the configuration wins."))
	if len(hints) == 0 {
		return app.Div().ID("sandbox-hints").Body(app.H3().Text("Hints followed"), app.P().Text("None: all of the above is inferred."), how)
	}
	var items []app.UI
	for _, h := range hints {
		var target app.UI = app.Code().Text(h.Target)
		if h.Kind != "resource" {
			target = opLink(a, h.Target)
		}
		items = append(items, app.Li().DataSet("from", h.From).Body(
			app.Span().Class("badge").Text(fromText(a.Slug, h.From)), app.Text(" "+h.Kind+" "), target, app.Text(": "+h.Says)))
	}
	return app.Div().ID("sandbox-hints").Body(app.H3().Text("Hints followed"), app.Ul().Class("sandbox-hint-list").Body(items...), how)
}

// fact is one term and its description in a collection's facts.
func fact(term, desc string) app.UI {
	return app.Div().Body(app.Dt().Text(term), app.Dd().Text(desc))
}

// opLink links an operation's page, with its method and path when the catalog has it.
func opLink(a *catalog.API, id string) app.UI {
	for i := range a.Operations {
		if o := &a.Operations[i]; o.ID == id {
			return app.Span().Class("sandbox-op").Body(ui.MethodBadge(o.Method), app.Text(" "),
				app.A().Href(ui.Href("/"+a.Slug+"/"+o.ID)).Class("mono").Text(o.ID),
				app.Text(" "), app.Span().Class("mono path").Text(o.Path))
		}
	}
	return app.Code().Text(id)
}
