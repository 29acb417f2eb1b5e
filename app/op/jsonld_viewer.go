package op

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/jsonld"
	"loupe/app/markdown"
	"loupe/app/ui"
)

func init() {
	bodyViewers[catalog.ViewerJSONLD] = func(op *catalog.Operation, status int, body []byte) app.UI {
		return newJSONLDViewer(body)
	}
}

// jsonldViewer shows a JSON-LD response three ways: entity cards, the document with every term
// expanded to its full IRI through @context, and the raw document. Text from the response goes
// through go-app's Text and attributes only, never through raw HTML.
type jsonldViewer struct {
	app.Compo

	// Body is the JSON-LD document.
	Body []byte

	mode      string // "cards", "expanded" or "raw"
	parsedFor []byte
	entities  []jsonld.Entity
	doc       *jsonld.Document
	err       string
	broken    map[string]bool // image URLs that failed to load
}

func newJSONLDViewer(body []byte) *jsonldViewer { return &jsonldViewer{Body: body} }

// parse expands the body once per body.
func (v *jsonldViewer) parse() {
	if v.parsedFor != nil && bytes.Equal(v.parsedFor, v.Body) {
		return
	}
	v.parsedFor = v.Body
	v.entities, v.doc, v.err = nil, nil, ""
	doc, err := jsonld.Expand(v.Body)
	if err != nil {
		v.err = err.Error()
		return
	}
	v.doc = doc
	if v.entities, err = jsonld.Entities(v.Body); err != nil {
		v.err = err.Error()
	}
}

// onMode switches between cards, expanded and raw.
func (v *jsonldViewer) onMode(ctx app.Context, e app.Event) {
	v.mode = ctx.JSSrc().Get("value").String()
}

// onImageError hides an image that did not load.
func (v *jsonldViewer) onImageError(ctx app.Context, e app.Event) {
	if v.broken == nil {
		v.broken = map[string]bool{}
	}
	v.broken[ctx.JSSrc().Get("dataset").Get("src").String()] = true
}

// Render implements app.Composer.
func (v *jsonldViewer) Render() app.UI {
	v.parse()
	mode := v.mode
	if mode == "" {
		mode = "cards"
		if len(v.entities) == 0 {
			mode = "expanded"
		}
	}
	modes := []struct{ id, label string }{
		{"cards", "Entities (" + strconv.Itoa(len(v.entities)) + ")"}, {"expanded", "Expanded IRIs"}, {"raw", "Document"},
	}
	var buttons []app.UI
	for _, m := range modes {
		buttons = append(buttons, app.Button().Type("button").Class("seg-btn").Value(m.id).
			Aria("pressed", strconv.FormatBool(m.id == mode)).Text(m.label).OnClick(v.onMode))
	}
	var content app.UI
	switch {
	case mode == "raw":
		text := string(v.Body)
		if f, ok := ui.FormatJSON(text); ok {
			text = f
		}
		content = app.Pre().Class("mono raw jsonld-raw").Text(text)
	case v.doc == nil:
		content = app.P().Class("alert alert-error").Text("This is not a JSON-LD document: " + v.err)
	case mode == "expanded":
		content = jlExpanded(v.doc)
	default:
		content = v.renderCards()
	}
	return app.Div().Class("jsonld-viewer").Body(
		app.Div().Class("seg").Role("group").Aria("label", "JSON-LD view").Body(buttons...),
		content,
	)
}

// renderCards renders one card per entity, scores scaled to the top score.
func (v *jsonldViewer) renderCards() app.UI {
	if len(v.entities) == 0 {
		return app.P().Class("empty").Text("No entities in this response.")
	}
	top := 0.0
	for _, e := range v.entities {
		top = max(top, e.ResultScore)
	}
	cards := make([]app.UI, 0, len(v.entities))
	for i := range v.entities {
		cards = append(cards, v.renderCard(&v.entities[i], top))
	}
	return app.Div().Class("entity-cards").Body(cards...)
}

func (v *jsonldViewer) renderCard(e *jsonld.Entity, top float64) app.UI {
	var chips []app.UI
	for i, t := range e.Types {
		iri := ""
		if i < len(e.TypeIRIs) {
			iri = e.TypeIRIs[i]
		}
		chips = append(chips, app.Span().Class("chip").Title(iri).Text(t))
	}
	var img app.UI
	if e.Image != nil {
		src := e.Image.ContentURL
		if src == "" {
			src = e.Image.URL
		}
		if jlSafeURL(src) && !v.broken[src] {
			img = app.Figure().Class("entity-image").Body(
				app.Img().Src(src).Alt("%s", e.Name).Loading("lazy").Attr("referrerpolicy", "no-referrer").
					DataSet("src", src).Width(112).Height(112).OnError(v.onImageError),
				app.FigCaption().Body(jlLink(e.Image.URL, "image source"), jlLink(e.Image.License, "license")),
			)
		}
	}
	var detail app.UI
	if d := e.Detailed; d != nil {
		detail = app.Div().Class("entity-detail").Body(
			app.P().Text(d.ArticleBody),
			app.P().Class("entity-links").Body(jlLink(d.URL, "source"), jlLink(d.License, "license")),
		)
	}
	var score app.UI
	if e.HasScore {
		pct := 100.0
		if top > 0 {
			pct = max(0, e.ResultScore/top*100)
		}
		score = app.Div().Class("score").Title("resultScore "+strconv.FormatFloat(e.ResultScore, 'f', -1, 64)).Body(
			app.Div().Class("score-bar").Body(app.Div().Class("score-fill").Style("width", strconv.FormatFloat(pct, 'f', 1, 64)+"%")),
			app.Span().Class("score-value mono").Text(strconv.FormatFloat(e.ResultScore, 'f', -1, 64)),
		)
	}
	name := e.Name
	if name == "" {
		name = e.ID
	}
	return app.Article().Class("entity-card").Body(
		app.If(img != nil, func() app.UI { return img }),
		app.Div().Class("entity-body").Body(
			app.H3().Class("entity-name").Text(name),
			app.Div().Class("chips").Body(chips...),
			app.If(e.Description != "", func() app.UI { return app.P().Class("entity-desc").Text(e.Description) }),
			app.If(detail != nil, func() app.UI { return detail }),
			app.P().Class("entity-links").Body(
				jlLink(e.URL, "website"),
				app.If(e.ID != "", func() app.UI { return app.Code().Class("entity-id").Title(e.IRI).Text(e.ID) }),
			),
			app.If(score != nil, func() app.UI { return score }),
		),
	)
}

// jlSafeURL reports whether a URL from a response may become a link or image: http(s) only,
// and never to Loupe's proxy or sandboxes (an image there would call an API with the server's
// credential as soon as the card shows).
func jlSafeURL(u string) bool {
	l := strings.ToLower(strings.TrimSpace(u))
	return (strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://")) && !markdown.Internal(u)
}

// jlLink is an external link opening in a new tab, or nothing for an empty or unsafe URL.
func jlLink(u, label string) app.UI {
	if !jlSafeURL(u) {
		return nil
	}
	return app.A().Class("ext").Href(u).Title(u).Rel("noopener noreferrer").Target("_blank").Text(label)
}

// jlExpanded renders the context's definitions, then the document with each term beside its
// full IRI.
func jlExpanded(d *jsonld.Document) app.UI {
	var defs []app.UI
	for _, t := range d.Context {
		defs = append(defs, app.Tr().Body(
			app.Td().Class("mono").Text(t.Term), app.Td().Class("mono muted").Text(t.Value), app.Td().Class("mono iri").Body(ui.BreakableElem("span", nil, t.IRI)),
		))
	}
	budget := 4000
	return app.Div().Class("jsonld-expanded").Body(
		app.If(len(defs) > 0, func() app.UI {
			return app.Table().Class("kv jsonld-context").Body(
				app.THead().Body(app.Tr().Body(app.Th().Text("@context term"), app.Th().Text("written"), app.Th().Text("expands to"))),
				app.TBody().Body(defs...),
			)
		}),
		app.Range(d.Warnings).Slice(func(i int) app.UI { return app.P().Class("alert").Text(d.Warnings[i]) }),
		app.Div().Class("jl-tree mono").Body(jlValue(d.Root, &budget)),
	)
}

// jlValue renders one value; budget caps the number of rows so a 500-entity answer stays fast.
func jlValue(v jsonld.Value, budget *int) app.UI {
	switch v.Kind {
	case jsonld.Object:
		if v.Node == nil {
			return app.Span().Class("j-punct").Text("{}")
		}
		return jlNode(v.Node, budget)
	case jsonld.Array:
		var items []app.UI
		for _, it := range v.Items {
			if *budget <= 0 {
				items = append(items, app.Li().Class("muted").Text("…"))
				break
			}
			items = append(items, app.Li().Body(jlValue(it, budget)))
		}
		return app.Ol().Class("jl-list").Body(items...)
	case jsonld.String:
		if v.IRI != "" {
			return app.Span().Class("j-str").Title(v.IRI).Body(app.Text(strconv.Quote(v.String)), jlIRI(v.IRI))
		}
		s := strconv.Quote(v.String)
		if v.Language != "" {
			s += " @" + v.Language
		}
		return app.Span().Class("j-str").Text(s)
	case jsonld.Number:
		return app.Span().Class("j-num").Text(v.Number.String())
	case jsonld.Bool:
		return app.Span().Class("j-bool").Text(strconv.FormatBool(v.Bool))
	}
	return app.Span().Class("j-bool").Text("null")
}

// jlNode renders a node: @id, @type and each property as "term → IRI: value".
func jlNode(n *jsonld.Node, budget *int) app.UI {
	var rows []app.UI
	row := func(term, iri string, value app.UI) {
		*budget--
		rows = append(rows, app.Li().Class("jl-prop").Body(
			app.Span().Class("j-key").Text(term),
			app.If(iri != "" && iri != term, func() app.UI { return jlIRI(iri) }),
			app.Span().Class("j-punct").Text(": "),
			value,
		))
	}
	if n.ID != nil {
		row("@id", "", app.Span().Class("j-str").Body(app.Text(n.ID.Compact), jlIRI(n.ID.IRI)))
	}
	if len(n.Types) > 0 {
		var ts []app.UI
		for _, t := range n.Types {
			ts = append(ts, app.Span().Class("chip").Body(app.Text(t.Compact), jlIRI(t.IRI)))
		}
		row("@type", "", app.Span().Body(ts...))
	}
	for _, p := range n.Properties {
		if *budget <= 0 {
			rows = append(rows, app.Li().Class("muted").Text("…"))
			break
		}
		iri := p.IRI
		if iri == "" && !strings.HasPrefix(p.Term, "@") {
			iri = "(not mapped: dropped by JSON-LD processors)"
		}
		row(p.Term, iri, jlValue(p.Value, budget))
	}
	return app.Ul().Class("jl-node").Body(rows...)
}

// jlIRI renders the IRI a term expands to, after an arrow, wrapping between its parts.
func jlIRI(iri string) app.UI {
	return ui.BreakableElem("span", []ui.Attr{{Name: "class", Value: "jl-iri"}}, " → "+iri)
}
