package op

import (
	"encoding/json"
	stdhtml "html"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/microcosm-cc/bluemonday"

	"loupe/app/catalog"
	"loupe/app/markdown"
	"loupe/app/ui"
)

func init() {
	bodyViewers[catalog.ViewerHTML] = func(op *catalog.Operation, status int, body []byte) app.UI {
		return embedView(body)
	}
}

// embedStyle is the stylesheet of the embedded page; the server serves /web/<name> as is.
const embedStyle = "/web/embed.css"

// embedPolicy sanitizes documentation HTML from an API: text structure, code, tables, images
// and links to http(s) URLs, and ids (the section anchors). No script, style, form, frame,
// event handler or style attribute survives. It is built on the first embed answer, not as the
// wasm starts (UGCPolicy compiles a dozen regular expressions, which every page would wait on).
var embedPolicy = sync.OnceValue(func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_:.-]*$`)).Globally()
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[A-Za-z0-9_ -]+$`)).OnElements("div", "section", "span", "pre", "code", "a", "p")
	p.AllowURLSchemes("mailto")
	notInternal := func(u *url.URL) bool { return !markdown.Internal(u.String()) }
	p.AllowURLSchemeWithCustomPolicy("http", notInternal)
	p.AllowURLSchemeWithCustomPolicy("https", notInternal)
	// An image or media source is loaded as soon as the page shows: only an absolute http(s)
	// URL that does not lead to Loupe's proxy or sandboxes stays.
	p.RewriteSrc(func(u *url.URL) {
		if !u.IsAbs() || markdown.Internal(u.String()) {
			*u = url.URL{}
		}
	})
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
})

// embed is the documented shape of an embed answer: content as one HTML string or a list of
// them, the page's headings as {title: anchor} objects, where it came from.
type embed struct {
	Content json.RawMessage     `json:"content"`
	Headers []map[string]string `json:"headers"`
	URL     string              `json:"url"`
	Meta    map[string]any      `json:"meta"`
}

// embedView shows an embed answer: where the page came from, its headings, and its HTML,
// sanitized, in a frame that runs no script and has no origin of its own.
func embedView(body []byte) app.UI {
	var e embed
	if err := json.Unmarshal(body, &e); err != nil {
		return app.P().Class("muted").Text("This answer is not an embed document; see the JSON tab.")
	}
	parts, ok := embedParts(e.Content)
	if !ok {
		return app.P().Class("muted").Text("This answer holds no HTML content; see the JSON tab.")
	}
	clean := embedPolicy().Sanitize(strings.Join(parts, "\n"))
	doc := `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="` + embedStyle + `"></head><body>` + clean + `</body></html>`
	var toc []app.UI
	for _, h := range e.Headers {
		for title, anchor := range h {
			toc = append(toc, app.Li().Body(app.Span().Text(title), app.Code().Class("muted small").Text(anchor)))
		}
	}
	return app.Div().Class("embed").Body(
		app.If(e.URL != "", func() app.UI {
			return app.P().Class("embed-source small").Body(
				app.Text("From "),
				app.A().Href(safeLink(e.URL)).Target("_blank").Rel("noopener noreferrer").Text(e.URL),
			)
		}),
		app.If(len(toc) > 0, func() app.UI {
			return app.Details().Class("embed-toc").Body(
				app.Summary().Text(ui.Plural(len(toc), "heading", "headings")),
				app.Ul().Body(toc...),
			)
		}),
		app.IFrame().ID("embed-frame").Class("embed-frame").Title("The embedded page, sanitized").
			Attr("sandbox", "allow-popups allow-popups-to-escape-sandbox").
			Attr("referrerpolicy", "no-referrer").Attr("srcdoc", doc),
		app.P().Class("muted small").Text("Shown sanitized (bluemonday) in a sandboxed frame: scripts, styles, forms and event handlers of the page are removed. The Raw tab has the HTML as the API sent it."),
	)
}

// embedParts reads content as a list of HTML strings or one string.
func embedParts(raw json.RawMessage) ([]string, bool) {
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list, len(list) > 0
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, one != ""
	}
	return nil, false
}

// safeLink keeps http(s) links, except to Loupe's proxy or sandboxes, and turns anything else
// into an inert fragment.
func safeLink(u string) string {
	if (strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) && !markdown.Internal(u) {
		return u
	}
	return "#" + stdhtml.EscapeString(u)
}
