package cluster

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Render implements app.Composer: the status and counters, the table of shards, then the
// fault controls.
func (c *clusterPicture) Render() app.UI {
	s := c.state
	return app.Section().ID("cluster-picture").Class("cluster-picture").Aria("label", "Cluster picture").Body(
		app.H2().Class("picture-title").Body(
			app.Text("Cluster picture "),
			app.Span().Class("badge").Title("Loupe's built-in sandbox only: the real cluster has no such view").Text("sandbox"),
		),
		app.If(c.err != "", func() app.UI { return app.P().Class("picture-error").Text(c.err) }),
		app.If(s == nil && c.err == "", func() app.UI { return app.P().Class("muted").Text("Reading the cluster…") }),
		app.If(s != nil, func() app.UI { return c.renderStatus() }),
		app.If(s != nil, func() app.UI { return c.renderTable() }),
		app.If(s != nil, func() app.UI { return c.renderControls() }),
	)
}

// renderStatus renders the cluster's status and counters.
func (c *clusterPicture) renderStatus() app.UI {
	h := c.state.Health
	counter := func(name string, n int) app.UI {
		return app.Span().Class("picture-counter").Body(app.Strong().Text(strconv.Itoa(n)), app.Text(" "+name))
	}
	return app.Div().Class("picture-status").Aria("live", "polite").Body(
		app.Span().ID("picture-health").Class("health-badge health-"+h.Status).Text(h.Status),
		counter("nodes", h.NumberOfNodes),
		counter("active", h.ActiveShards),
		counter("initializing", h.InitializingShards),
		counter("relocating", h.RelocatingShards),
		counter("unassigned", h.UnassignedShards),
		counter("delayed", h.DelayedUnassigned),
		counter("pending tasks", h.PendingTasks),
		counter("fetches", h.InFlightFetch),
		app.Span().Class("picture-counter").Text(fmt.Sprintf("%.0f%% active", h.ActivePercent)),
		app.If(c.Sending, func() app.UI { return app.Span().Class("picture-live").Text("a call is waiting: watching") }),
	)
}

// renderTable renders the shards: a row per index, a column per node and one for the
// unassigned copies. Each node's header has its stop or start button.
func (c *clusterPicture) renderTable() app.UI {
	s := c.state
	head := []app.UI{app.Th().Scope("col").Text("index")}
	for _, n := range s.Nodes {
		name, up := n.Name, n.Up
		label, what, verb := "Stop", "Stopping "+name, "_stop"
		if !up {
			label, what, verb = "Start", "Starting "+name, "_start"
		}
		head = append(head, app.Th().Scope("col").Class(map[bool]string{true: "node-up", false: "node-down"}[up]).Body(
			app.Span().Class("node-name").Text(name),
			app.If(!up, func() app.UI { return app.Span().Class("node-state").Text("stopped") }),
			app.Button().Type("button").Class("btn btn-small").ID("node-"+verb[1:]+"-"+name).
				Title(label+" "+name+" (sandbox only)").Text(label).
				OnClick(func(ctx app.Context, e app.Event) {
					c.control(ctx, what, "POST", "nodes/"+name+"/"+verb, "")
				}),
		))
	}
	head = append(head, app.Th().Scope("col").Text("unassigned"))
	var rows []app.UI
	for i, ix := range s.Indices {
		cells := s.cells(i)
		row := []app.UI{app.Th().Scope("row").Class("index-name health-text-"+ix.Status).Body(
			app.Span().Class("health-dot health-"+ix.Status).Aria("hidden", "true"),
			app.Text(ix.Name),
			app.If(ix.Closed, func() app.UI { return app.Span().Class("muted").Text(" closed") }),
		)}
		for _, n := range s.Nodes {
			row = append(row, c.renderCell(ix.Name, cells[n.Name], !n.Up))
		}
		row = append(row, c.renderCell(ix.Name, cells[""], false))
		rows = append(rows, app.Tr().DataSet("index", ix.Name).Body(row...))
	}
	return app.Div().Class("table-scroll picture-scroll").Body(
		app.Table().Class("picture-table").Body(
			app.THead().Body(app.Tr().Body(head...)),
			app.TBody().Body(rows...),
		),
	)
}

// renderCell renders the copies one node holds of one index.
func (c *clusterPicture) renderCell(index string, cells []pictureCell, down bool) app.UI {
	var chips []app.UI
	for _, cell := range cells {
		cls := "shard-copy health-" + cell.Status + " state-" + cell.State
		if cell.Primary {
			cls += " primary"
		}
		chips = append(chips, app.Span().Class(cls).Title(cell.title(index)).Aria("label", cell.title(index)).Text(cell.label()))
	}
	cls := "picture-cell"
	if down {
		cls += " node-down"
	}
	return app.Td().Class(cls).Body(chips...)
}

// renderControls renders the fault controls beside the picture.
func (c *clusterPicture) renderControls() app.UI {
	s := c.state
	var options []app.UI
	for _, ix := range s.Indices {
		options = append(options, app.Option().Value(ix.Name).Selected(ix.Name == c.index).Text(ix.Name))
	}
	status := c.action
	if status != "" {
		status += "…"
	}
	return app.Div().Class("picture-controls").Body(
		app.Form().Class("picture-row").OnSubmit(c.onCreate).Body(
			app.Label().For("new-index").Text("New index"),
			app.Input().ID("new-index").Type("text").Value(c.newName).Size(10).OnInput(c.ValueTo(&c.newName)),
			app.Label().For("new-shards").Text("primaries"),
			app.Input().ID("new-shards").Type("number").Min(1).Max(64).Value(c.shards).OnInput(c.ValueTo(&c.shards)),
			app.Label().For("new-replicas").Text("replicas"),
			app.Input().ID("new-replicas").Type("number").Min(0).Max(8).Value(c.reps).OnInput(c.ValueTo(&c.reps)),
			app.Button().Type("submit").Class("btn btn-small").Text("Create"),
		),
		app.Div().Class("picture-row").Body(
			app.Label().For("picture-index").Text("Index"),
			app.Select().ID("picture-index").OnChange(c.ValueTo(&c.index)).Body(options...),
			c.indexButton("Close", "POST", "/_close"),
			c.indexButton("Open", "POST", "/_open"),
			c.indexButton("Delete", "DELETE", ""),
		),
		app.Div().Class("picture-row").Body(
			app.Label().For("picture-slowdown").Text("Allocation speed"),
			app.Select().ID("picture-slowdown").OnChange(c.onSlowdown).Body(
				c.speedOption(1, "normal"), c.speedOption(5, "5× slower"), c.speedOption(20, "20× slower"),
			),
			app.Button().ID("picture-reset").Type("button").Class("btn btn-small btn-quiet").Text("Reset the cluster").
				Title("The cluster and the security configuration as at start (sandbox only)").
				OnClick(func(ctx app.Context, e app.Event) { c.control(ctx, "Resetting", "POST", "_reset", "") }),
		),
		app.P().Class("picture-note muted").Text(fmt.Sprintf(
			"A stopped node's replicas wait %s for it (delayed), then go to the other nodes. These controls are Loupe's sandbox only.",
			s.Allocation.DelayedTimeout)),
		app.P().Class("form-status").Aria("live", "polite").Body(
			app.Text(status),
			app.If(c.result != "", func() app.UI { return app.Span().Class("picture-error").Text(c.result) }),
		),
	)
}

// indexButton is a button acting on the chosen index.
func (c *clusterPicture) indexButton(label, method, suffix string) app.UI {
	return app.Button().Type("button").Class("btn btn-small").Text(label).
		OnClick(func(ctx app.Context, e app.Event) {
			if c.index != "" {
				c.control(ctx, label+" "+c.index, method, "indices/"+url.PathEscape(c.index)+suffix, "")
			}
		})
}

// speedOption is one choice of the allocation speed.
func (c *clusterPicture) speedOption(factor int, label string) app.UI {
	return app.Option().Value(strconv.Itoa(factor)).Selected(c.state.Allocation.Slowdown == factor).Text(label)
}

// onCreate creates the index the form describes.
func (c *clusterPicture) onCreate(ctx app.Context, e app.Event) {
	e.PreventDefault()
	shards, err1 := strconv.Atoi(c.shards)
	reps, err2 := strconv.Atoi(c.reps)
	if err1 != nil || err2 != nil {
		c.result = "Primaries and replicas must be whole numbers."
		return
	}
	c.control(ctx, "Creating "+c.newName, "PUT", "indices/"+url.PathEscape(c.newName), fmt.Sprintf(`{"shards":%d,"replicas":%d}`, shards, reps))
}

// onSlowdown changes the allocation speed.
func (c *clusterPicture) onSlowdown(ctx app.Context, e app.Event) {
	c.control(ctx, "Changing the allocation speed", "PUT", "allocation", `{"slowdown":`+ctx.JSSrc().Get("value").String()+`}`)
}
