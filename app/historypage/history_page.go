package historypage

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/history"
	"loupe/app/op"
	"loupe/app/ui"
)

// historyPath is the history page's address.
const historyPath = "/history"

func init() {
	ui.AddPage(ui.Page{
		Slug:   historyPath[1:],
		Serves: func(cat *catalog.Catalog, id string) bool { return id == "" && cat.API(historyPath[1:]) == nil },
		Paths: func(cat *catalog.Catalog) []string {
			if cat.API(historyPath[1:]) == nil {
				return []string{historyPath}
			}
			return nil
		},
		Title:  "History — Loupe",
		Render: func(cat *catalog.Catalog, id string) app.UI { return newHistoryPage(cat) },
		Link:   func(slug, id string) app.UI { return historyLink("/"+slug == historyPath && id == "") },
	})
}

// historyLink is the sidebar's link to the history page; current marks it while it is shown.
func historyLink(current bool) app.UI {
	a := app.A().ID("history-link").Class("history-link").Href(ui.Href(historyPath)).Text("History")
	if current {
		a = a.Aria("current", "page")
	}
	return a
}

// historyPage lists the requests this browser sent, the newest first: searchable, each one a
// link that reopens the request in its form, with one button to clear them all and a switch
// that turns the history off (nothing is written while it is off).
type historyPage struct {
	app.Compo

	// Cat names the APIs and operations of the entries.
	Cat *catalog.Catalog

	entries []history.Entry
	query   string
	on      bool
	rec     recorder // Save as walkthrough (record_panel.go)
}

func newHistoryPage(cat *catalog.Catalog) *historyPage { return &historyPage{Cat: cat, on: true} }

// OnMount reads the history, and again whenever a request is recorded or it is cleared.
func (h *historyPage) OnMount(ctx app.Context) {
	h.reload()
	ctx.Handle(op.HistoryChangedAction, func(ctx app.Context, a app.Action) { h.reload() })
}

func (h *historyPage) reload() {
	h.entries = op.LoadHistory()
	h.on = op.HistoryOn()
}

func (h *historyPage) onSearch(ctx app.Context, e app.Event) {
	h.query = ctx.JSSrc().Get("value").String()
}

func (h *historyPage) onToggle(ctx app.Context, e app.Event) {
	h.on = ctx.JSSrc().Get("checked").Bool()
	op.SetHistoryOn(h.on)
}

func (h *historyPage) onClear(ctx app.Context, e app.Event) {
	op.ClearHistory(ctx)
	h.entries = nil
}

// title is an entry's operation as the sidebar names it, else its operationId.
func (h *historyPage) title(e history.Entry) (api, op string) {
	api, op = e.API, e.Op
	if h.Cat == nil {
		return api, op
	}
	if a := h.Cat.API(e.API); a != nil {
		api = a.Title
		if o := a.Operation(e.Op); o != nil && o.Summary != "" {
			op = o.Summary
		}
	}
	return api, op
}

// Render implements app.Composer.
func (h *historyPage) Render() app.UI {
	shown := history.Search(h.entries, h.query)
	var rows []app.UI
	for _, e := range shown {
		apiTitle, opTitle := h.title(e)
		status := app.Span().Class("status status-0").Text("—")
		switch {
		case e.Status > 0:
			status = app.Span().Class("status status-" + strconv.Itoa(e.Status)[:1]).Text(strconv.Itoa(e.Status))
		case e.Error != "":
			status = app.Span().Class("status status-5").Title(e.Error).Text("failed")
		}
		when := time.UnixMilli(e.Time)
		key := entryKey(e)
		rows = append(rows, app.Li().Class("history-entry").Body(
			app.Input().ID("history-pick-"+key).Class("history-pick").Type("checkbox").DataSet("key", key).
				Checked(h.rec.picked[key]).Aria("label", "Pick "+e.Method+" "+opTitle+" for a walkthrough").OnChange(h.onPick),
			app.A().Class("history-open").Href(ui.Href(e.Link())).Title("Reopen this request in its form").Body(
				ui.MethodBadge(e.Method),
				app.Span().Class("history-op").Body(
					app.Span().Class("history-title").Text(opTitle),
					app.Span().Class("muted history-api").Text(" · "+apiTitle),
				),
				status,
			),
			app.Div().Class("history-meta muted").Body(
				app.Code().Class("history-url").Text(e.URL),
				app.Time().DateTime(when.UTC().Format(time.RFC3339)).Text(" "+localTime(e.Time)),
				app.Text(" · "+ui.HumanDuration(time.Duration(e.Millis)*time.Millisecond)),
				app.If(e.Bytes > 0, func() app.UI { return app.Text(" · " + ui.HumanSize(e.Bytes)) }),
				app.If(e.Dropped, func() app.UI { return app.Text(" · the form was too large to keep") }),
			),
		))
	}
	var list app.UI
	switch {
	case len(h.entries) == 0:
		list = app.P().ID("history-empty").Class("muted").Text("Nothing sent yet. The requests you send from an operation’s form, the script workspace or a walkthrough appear here.")
	case len(shown) == 0:
		list = app.P().ID("history-empty").Class("muted").Text("No request matches “" + h.query + "”.")
	default:
		list = app.Ol().ID("history-list").Class("history-list").Body(rows...)
	}
	return app.Article().Class("page history-page").Body(
		app.H1().Text("History"),
		app.P().Class("lede").Text("The last "+strconv.Itoa(history.Max)+" requests sent from this browser, kept in its local storage: "+
			"never a credential, never a response body (only its size; this tab keeps the answers for the session, to save requests as a walkthrough). Select one to open it again in its form."),
		app.Div().Class("history-tools").Body(
			app.Label().For("history-search").Class("visually-hidden").Text("Search the history"),
			app.Input().ID("history-search").Type("search").Placeholder("Search by API, operation, method, URL or status").
				AutoComplete(false).Value(h.query).OnInput(h.onSearch),
			app.Label().Class("history-switch").Body(
				app.Input().ID("history-on").Type("checkbox").Checked(h.on).OnChange(h.onToggle),
				app.Text(" Keep a history"),
			),
			app.Button().ID("history-clear").Type("button").Class("btn").Disabled(len(h.entries) == 0).
				Text("Clear history").OnClick(h.onClear),
		),
		app.If(!h.on, func() app.UI {
			return app.P().ID("history-off").Class("muted").Text("The history is off: nothing you send is written.")
		}),
		app.If(len(h.entries) > 0, func() app.UI { return h.renderRecorder() }),
		app.P().Class("muted history-count").Aria("live", "polite").Text(ui.Plural(len(shown), "request", "requests")),
		list,
	)
}

// localTime writes a time (milliseconds since the epoch) as the browser's locale and time zone
// do: Go's time package knows no local zone under WebAssembly.
func localTime(ms int64) string {
	if !app.IsClient {
		return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return app.Window().Get("Date").New(ms).Call("toLocaleString").String()
}
