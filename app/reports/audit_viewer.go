package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/op"
	"loupe/app/ui"
)

func init() {
	op.AddBodyViewer(catalog.ViewerAudit, "Console", auditView)
}

// auditView shows an activity list as an admin console does: each record as its console
// sentence (the templates of the operation's x-loupe-events), grouped by day on a timeline,
// times as dates with the raw value on hover, filter chips that set the form's type and
// eventName and send again, and the event catalogue beside it. A record opens to its JSON.
func auditView(op *catalog.Operation, status int, body []byte) app.UI {
	records, ok := parseAuditRecords(body)
	if !ok {
		return app.P().Class("muted").Text("The response is not an activity list; see the JSON tab.")
	}
	c := readAuditCatalog(op.Extensions)
	return app.Div().ID("audit").Class("audit").Body(
		auditFilters(c),
		app.Div().Class("audit-layout").Body(
			auditTimeline(c, records),
			auditCatalogView(c),
		),
	)
}

// auditFilters are the chips of every group, and one to clear the filters.
func auditFilters(c auditCatalog) app.UI {
	chips := []app.UI{app.Span().Class("muted").Text("Filter by group:"), filterChip("All", "", "", "audit-chip-all")}
	for _, g := range c.groups {
		chips = append(chips, filterChip(g, g, "", "audit-group-"+g))
	}
	return app.Div().Class("audit-filters").Body(chips...)
}

// filterChip is a button that sets the form's type and eventName (clearing the page token)
// and sends the request again.
func filterChip(label, group, event, id string) app.UI {
	return app.Button().ID(id).Type("button").Class("chip").Title(filterTitle(group, event)).Text(label).
		OnClick(func(ctx app.Context, e app.Event) {
			e.PreventDefault()
			e.Call("stopPropagation")
			ctx.NewActionWithValue(op.PageAction, op.PageMove{Query: map[string]string{"type": group, "eventName": event, "pageToken": ""}})
		})
}

// filterTitle says what a chip does.
func filterTitle(group, event string) string {
	switch {
	case event != "":
		return "Show only " + event + " events (sets eventName)"
	case group != "":
		return "Show only the " + group + " group (sets type)"
	}
	return "Clear type and eventName"
}

// auditTimeline is the records by day, newest first.
func auditTimeline(c auditCatalog, records []auditRecord) app.UI {
	if len(records) == 0 {
		return app.Div().ID("audit-timeline").Class("audit-timeline").Body(
			app.P().ID("audit-empty").Class("muted").Text("No activity matches; widen the range or clear the filters."))
	}
	days := byDay(records)
	sections := make([]app.UI, 0, len(days))
	for _, d := range days {
		items := make([]app.UI, 0, len(d.records))
		for _, r := range d.records {
			items = append(items, auditRecordView(c, r))
		}
		title := d.day
		if t, err := time.Parse("2006-01-02", d.day); err == nil {
			title = t.Format("Monday 2 January 2006")
		}
		sections = append(sections, app.Section().Class("audit-day").DataSet("day", d.day).Body(
			app.H4().Class("audit-day-title").Text(title),
			app.Ol().Class("audit-records").Body(items...),
		))
	}
	return app.Div().ID("audit-timeline").Class("audit-timeline").Body(sections...)
}

// auditRecordView is one record: its time, each event's sentence and chips, and its JSON.
func auditRecordView(c auditCatalog, r auditRecord) app.UI {
	var lines []app.UI
	for _, e := range r.Events {
		lines = append(lines, app.Span().Class("audit-event").Body(
			app.Span().Class("audit-sentence").Text(c.sentence(r, e)),
			filterChip(e.Type, e.Type, "", ""),
			filterChip(e.Name, e.Type, e.Name, ""),
		))
		for _, p := range e.Parameters {
			if t, ok := c.gregorian(p); ok {
				lines = append(lines, app.Span().Class("audit-param muted").Body(
					app.Text(p.Name+": "),
					app.Time().DateTime(t.Format(time.RFC3339)).Title(p.Name+" = "+p.text()+" (Gregorian seconds)").
						Text(t.Format("Mon 2 Jan 2006 15:04 UTC")),
				))
			}
		}
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, r.raw, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(r.raw)
	}
	clock := r.ID.Time
	if !r.at.IsZero() {
		clock = r.at.UTC().Format("15:04:05 UTC")
	}
	return app.Li().Class("audit-record").Body(
		app.Details().Body(
			app.Summary().Body(
				app.Time().Class("audit-time mono").DateTime(r.ID.Time).Title(r.ID.Time).Text(clock),
				app.Span().Class("audit-lines").Body(lines...),
			),
			app.Pre().Class("audit-json mono").Text(pretty.String()),
		),
	)
}

// auditCatalogView lists every event of every group with its parameters and template.
func auditCatalogView(c auditCatalog) app.UI {
	groups := make([]app.UI, 0, len(c.groups))
	for _, g := range c.groups {
		var events []app.UI
		for _, e := range c.order {
			if e.Group != g {
				continue
			}
			events = append(events, app.Li().Body(
				filterChip(e.Name, e.Group, e.Name, "audit-event-"+e.Name),
				app.Div().Class("audit-template").Text(e.Message),
				app.Div().Class("audit-params muted mono").Text(strings.Join(e.Parameters, ", ")),
			))
		}
		groups = append(groups, app.Details().Class("audit-group").Body(
			app.Summary().Text(g+" ("+ui.Itoa(len(events))+")"),
			app.Ul().Body(events...),
		))
	}
	return app.Aside().ID("audit-catalog").Class("audit-catalog").Body(
		app.H4().Text("Event catalogue"),
		app.Div().Body(groups...),
	)
}
