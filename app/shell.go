package app

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/op"
	"loupe/app/ui"
)

// shell is the page layout of every route: the sidebar of APIs and operations, and the main
// pane showing the overview, an API's guide or an operation.
type shell struct {
	app.Compo

	cat     *catalog.Catalog
	loadErr string
	slug    string // API slug of the current page, "" on the overview
	opID    string // operationId of the current page, "" on the overview and guides

	keys     app.Func // the window keydown listener, released on dismount
	menuOpen bool     // the operation list is shown on a narrow screen (see menu_button.go)
	// navigated is set after the first OnNav: later ones move the focus to the new page.
	navigated bool
}

func newShell() *shell { return &shell{} }

// OnInit picks up the catalog when it is already there (server, or browser after preload)
// and, in the browser, the route, so that the first render already shows the right page
// (OnNav comes a frame later).
func (s *shell) OnInit() {
	if app.IsClient {
		if u := app.Window().URL(); u != nil {
			s.slug, s.opID = parseRoute(ui.StripBase(u.Path))
		}
	}
	s.cat = currentCatalog()
	if s.cat == nil {
		if err := catalogError(); err != nil {
			s.loadErr = err.Error()
		}
	}
}

// OnNav reads the current route from the URL.
func (s *shell) OnNav(ctx app.Context) {
	slug, opID := s.slug, s.opID
	s.slug, s.opID = parseRoute(ui.StripBase(ctx.Page().URL().Path))
	ctx.Page().SetTitle("%s", s.title())
	s.menuOpen = false
	if s.navigated && (slug != s.slug || opID != s.opID) {
		ctx.Defer(func(app.Context) { focusMain() }) // a screen reader reads the new page
	}
	s.navigated = true
}

// OnMount installs the keyboard shortcuts and loads the catalog when the preload failed.
func (s *shell) OnMount(ctx app.Context) {
	s.keys = app.FuncOf(func(_ app.Value, args []app.Value) any {
		s.onKey(ctx, args[0])
		return nil
	})
	app.Window().Call("addEventListener", "keydown", s.keys)
	switch {
	case s.cat == nil:
		s.retry(ctx)
	case s.cat.Page != "":
		s.complete(ctx)
	}
}

// complete loads the whole catalog in the background and completes the page catalog the page
// started with (see pageCatalog); a page the page catalog does not cover waits for it.
func (s *shell) complete(ctx app.Context) {
	ctx.Async(func() {
		full, err := wholeCatalog()
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				s.loadErr = err.Error()
				return
			}
			s.cat, s.loadErr = useWholeCatalog(full), ""
		})
	})
}

// page is the path of the current page, as pageCatalog names it.
func (s *shell) page() string {
	if s.opID == "" {
		return "/" + s.slug
	}
	return "/" + s.slug + "/" + s.opID
}

// OnDismount removes the keyboard shortcuts.
func (s *shell) OnDismount() {
	if s.keys != nil {
		app.Window().Call("removeEventListener", "keydown", s.keys)
		s.keys.Release()
		s.keys = nil
	}
}

// retry loads the catalog in the background.
func (s *shell) retry(ctx app.Context) {
	s.loadErr = ""
	ctx.Async(func() {
		cctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cat, err := loadCatalog(cctx)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				s.loadErr = err.Error()
				return
			}
			s.cat = cat
			ctx.Page().SetTitle("%s", s.title())
		})
	})
}

func (s *shell) onRetry(ctx app.Context, e app.Event) { s.retry(ctx) }

func (s *shell) onRetryComplete(ctx app.Context, e app.Event) {
	s.loadErr = ""
	s.complete(ctx)
}

// onKey handles the editing keys of code editors (ui.OnCodeEditorKey) and the global shortcuts:
// "/" focuses the filter unless the user is typing in a field, Ctrl+Enter (Cmd+Enter) sends
// the operation's request, Escape cancels it.
func (s *shell) onKey(ctx app.Context, e app.Value) {
	if ui.OnCodeEditorKey(e) {
		return
	}
	key := e.Get("key").String()
	ctrl := e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()
	switch {
	case key == "Enter" && ctrl:
		e.Call("preventDefault")
		ctx.NewAction(ui.SendAction)
	case key == "Escape":
		ctx.NewAction(ui.CancelAction)
	case key == "/" && !ctrl && !e.Get("altKey").Bool() && !typing(e.Get("target")):
		if f := app.Window().GetElementByID("filter"); f.Truthy() {
			e.Call("preventDefault")
			f.Call("focus")
			f.Call("select")
		}
	}
}

// typing reports whether an event target takes text.
func typing(t app.Value) bool {
	if !t.Truthy() {
		return false
	}
	if t.Get("isContentEditable").Truthy() {
		return true
	}
	switch t.Get("tagName").String() {
	case "INPUT", "TEXTAREA", "SELECT":
		return true
	}
	return false
}

// parseRoute splits /<slug>/<operationId> into its parts.
func parseRoute(path string) (slug, opID string) {
	parts := strings.SplitN(strings.Trim(path, "/"), "/", 2)
	slug, _ = url.PathUnescape(parts[0])
	if len(parts) == 2 {
		opID, _ = url.PathUnescape(parts[1])
	}
	return slug, opID
}

// title is the document title of the current page.
func (s *shell) title() string {
	if s.cat == nil || s.slug == "" {
		return "Loupe — API playground"
	}
	a := s.cat.API(s.slug)
	if a == nil {
		if p := ui.PageAt(s.cat, s.slug, s.opID); p != nil && p.Title != "" {
			return p.Title
		}
		return "Not found — Loupe"
	}
	if s.opID != "" {
		return s.opID + " — " + a.Title + " — Loupe"
	}
	return a.Title + " — Loupe"
}

// Render implements app.Composer.
func (s *shell) Render() app.UI {
	return app.Div().ID("layout").Body(
		app.A().Class("skip-link").Href("#main").Text("Skip to content").OnClick(s.onSkip),
		app.Nav().ID("side").Class(s.sideClass()).Aria("label", "APIs and operations").Body(
			app.Header().Class("brand").Body(
				app.A().Href(ui.Href("/")).Class("brand-link").Body(
					app.Span().Class("brand-mark").Aria("hidden", "true").Text("◎"),
					app.Span().Text("Loupe"),
				),
				app.Span().Class("brand-sub").Text("API playground"),
				s.renderMenuButton(),
			),
			app.Div().ID("side-menu").Class("side-menu").Body(s.renderSideMenu()...),
		),
		app.Main().ID("main").TabIndex(-1).Body(newModeBanner(s.bannerAPI()), s.renderMain()),
		s.renderPageCatalog(),
	)
}

// renderSideMenu is what the sidebar holds: who is signed in, the APIs and their operations,
// the links of the pages features add (the history), the theme toggle.
func (s *shell) renderSideMenu() []app.UI {
	menu := []app.UI{newAccountMenu(), newSidebar(s.cat, s.slug, s.opID)}
	for _, p := range ui.Pages() {
		if p.Link != nil {
			menu = append(menu, p.Link(s.slug, s.opID))
		}
	}
	return append(menu, ui.NewThemeToggle())
}

// bannerAPI is the API of the current page for the mode banner, or nil.
func (s *shell) bannerAPI() *catalog.API {
	if s.cat == nil || s.slug == "" {
		return nil
	}
	return s.cat.API(s.slug)
}

// renderMain picks the main pane for the route.
func (s *shell) renderMain() app.UI {
	switch {
	case s.cat == nil && s.loadErr != "":
		return app.Div().Class("page-error").Role("alert").Body(
			app.H1().Text("The catalog could not be loaded"),
			app.P().Text(s.loadErr),
			app.P().Text("Check that the Loupe server is running, then try again."),
			app.Button().Class("btn").Text("Try again").OnClick(s.onRetry),
		)
	case s.cat != nil && s.cat.Page != "" && s.cat.Page != s.page() && s.loadErr != "":
		return app.Div().Class("page-error").Role("alert").Body(
			app.H1().Text("The catalog could not be loaded"),
			app.P().Text(s.loadErr),
			app.Button().Class("btn").Text("Try again").OnClick(s.onRetryComplete),
		)
	case s.cat == nil, s.cat.Page != "" && s.cat.Page != s.page():
		return app.Div().Class("loading").Aria("busy", "true").Body(
			app.Span().Class("spinner").Aria("hidden", "true"),
			app.Text("Loading the catalog…"),
		)
	case s.slug == "":
		return newOverviewPage(s.cat)
	}
	if p := ui.PageAt(s.cat, s.slug, s.opID); p != nil {
		return p.Render(s.cat, s.opID)
	}
	a := s.cat.API(s.slug)
	if a == nil {
		return ui.NotFound("There is no API named “" + s.slug + "”.")
	}
	if s.opID == "" {
		return newAPIPage(a)
	}
	if p := ui.APIPageOf(a.Slug); p != nil && s.opID == p.ID {
		return p.Render(a)
	}
	operation := a.Operation(s.opID)
	if operation == nil {
		return ui.NotFound(a.Title + " has no operation “" + s.opID + "”.")
	}
	if operation.Partial {
		return newOperationLoader(a, operation)
	}
	return op.NewOperationPage(a, operation)
}
