package op

import (
	"encoding/json"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/request"
	"loupe/app/snippet"
	"loupe/app/ui"
)

// snippetChoiceKey is the localStorage key of the chosen snippet language and target.
const snippetChoiceKey = "loupe.snippet"

// Snippet targets: Loupe's proxy, which adds the credential, or the API's real server with the
// credential from an environment variable.
const (
	targetProxy = "proxy"
	targetReal  = "real"
)

// snippetChoice is the language and the target last chosen, shared by every page of the tab
// and kept in localStorage (it holds no credential).
var snippetChoice = struct{ kind, target string }{"curl", targetProxy}

// snippetChoiceLoaded is set once the choice was read from localStorage.
var snippetChoiceLoaded bool

// loadSnippetChoice reads the saved choice once, in the browser.
func loadSnippetChoice() {
	if snippetChoiceLoaded || !app.IsClient {
		return
	}
	snippetChoiceLoaded = true
	v := app.Window().Get("localStorage").Call("getItem", snippetChoiceKey)
	if !v.Truthy() {
		return
	}
	var saved struct{ Kind, Target string }
	if json.Unmarshal([]byte(v.String()), &saved) == nil && saved.Kind != "" {
		snippetChoice.kind = saved.Kind
		if saved.Target == targetReal {
			snippetChoice.target = targetReal
		}
	}
}

// saveSnippetChoice keeps the choice for the next page and the next visit.
func saveSnippetChoice() {
	if app.IsClient {
		text, _ := json.Marshal(struct{ Kind, Target string }{snippetChoice.kind, snippetChoice.target})
		app.Window().Get("localStorage").Call("setItem", snippetChoiceKey, string(text))
	}
}

// snippetPanel shows the request as code to copy: the language (curl, HTTPie, Go, JavaScript,
// Python, and the API's official clients) and the target (Loupe's proxy, which adds the
// credential, or the real API with the credential from an environment variable) are chosen
// with two menus. In the static explorer, which has no proxy, the target is the real API.
type snippetPanel struct {
	app.Compo

	// API and Op are the request's API and operation; Op may be nil (no official client then).
	API *catalog.API
	Op  *catalog.Operation
	// Req is the request the form describes, never nil.
	Req *request.Request
	// Held are the credentials the API's requests carry.
	Held []snippet.Credential

	copied bool
}

func newSnippetPanel(api *catalog.API, op *catalog.Operation, req *request.Request, held []snippet.Credential) *snippetPanel {
	return &snippetPanel{API: api, Op: op, Req: req, Held: held}
}

// OnInit reads the saved choice.
func (s *snippetPanel) OnInit() { loadSnippetChoice() }

// OnMount writes the snippet again when the page's API is pointed at its real server or back
// at the sandbox (static explorer).
func (s *snippetPanel) OnMount(ctx app.Context) {
	ctx.Handle(ui.APIModeAction, func(app.Context, app.Action) {})
}

// OnUpdate forgets "Copied" when the request changes.
func (s *snippetPanel) OnUpdate(ctx app.Context) { s.copied = false }

// kinds returns the languages of this request, and the chosen one (curl when the choice is
// not one of them).
func (s *snippetPanel) kinds() ([]snippet.Kind, string) {
	slug := ""
	if s.API != nil {
		slug = s.API.Slug
	}
	kinds := snippet.Kinds(slug, s.Op)
	for _, k := range kinds {
		if k.ID == snippetChoice.kind {
			return kinds, k.ID
		}
	}
	return kinds, "curl"
}

// proxied reports whether the snippet goes through Loupe's proxy.
func (s *snippetPanel) proxied() bool {
	return !ui.StaticMode() && (snippetChoice.target != targetReal || s.API == nil)
}

// target is where the snippet sends the request.
func (s *snippetPanel) target() snippet.Target {
	t := snippet.Target{Held: s.Held}
	if s.API == nil {
		t.Proxy = origin()
		return t
	}
	t.Direct = snippet.Direct{Prefix: "/proxy/" + s.API.Slug, Slug: s.API.Slug}
	if s.proxied() {
		t.Proxy = origin()
		return t
	}
	if len(s.API.Servers) > 0 {
		t.Direct.BaseURL = s.API.Servers[0]
	}
	switch {
	case !ui.StaticMode():
		t.Direct.Proxied = true
	default:
		t.Direct.InBrowser = true
		if real, ok := fetch.RealAPIOf(s.API.Slug); ok {
			t.Direct.BaseURL, t.Direct.InBrowser = real.BaseURL, false
		}
	}
	return t
}

// text is the snippet shown and copied.
func (s *snippetPanel) text() string {
	_, kind := s.kinds()
	return snippet.Write(kind, s.target(), s.Op, s.Req)
}

func (s *snippetPanel) onKind(ctx app.Context, e app.Event) {
	snippetChoice.kind = ctx.JSSrc().Get("value").String()
	saveSnippetChoice()
	s.copied = false
}

func (s *snippetPanel) onTarget(ctx app.Context, e app.Event) {
	snippetChoice.target = ctx.JSSrc().Get("value").String()
	saveSnippetChoice()
	s.copied = false
}

// onCopy copies the snippet, also on a plain-HTTP server (see ui.WriteClipboard).
func (s *snippetPanel) onCopy(ctx app.Context, e app.Event) {
	ui.WriteClipboard(ctx, s.text(), func(app.Context) { s.copied = true })
}

// Render implements app.Composer.
func (s *snippetPanel) Render() app.UI {
	kinds, kind := s.kinds()
	options := make([]app.UI, len(kinds))
	for i, k := range kinds {
		options[i] = app.Option().Value(k.ID).Selected(k.ID == kind).Text(k.Label)
	}
	return app.Div().Class("panel-body curl-wrap snippet").Body(
		app.Div().Class("sub-head snippet-head").Body(
			app.H3().Text("Code"),
			app.Label().For("snippet-kind").Class("visually-hidden").Text("Language"),
			app.Select().ID("snippet-kind").Class("snippet-select").Title("Language").OnChange(s.onKind).Body(options...),
			app.If(!ui.StaticMode(), func() app.UI {
				return app.Span().Body(
					app.Label().For("snippet-target").Class("visually-hidden").Text("Send to"),
					app.Select().ID("snippet-target").Class("snippet-select").Title("Send to").OnChange(s.onTarget).Body(
						app.Option().Value(targetProxy).Selected(s.proxied()).Text("Loupe proxy"),
						app.Option().Value(targetReal).Selected(!s.proxied()).Text("Real API"),
					),
				)
			}),
			app.Button().Type("button").Class("btn btn-small copy-curl copy-snippet").Text(ui.CopyText(s.copied)).OnClick(s.onCopy),
		),
		ui.BreakableElem("pre", []ui.Attr{{Name: "id", Value: "curl"}, {Name: "class", Value: "mono curl"}, {Name: "data-kind", Value: kind}}, s.text()),
	)
}
