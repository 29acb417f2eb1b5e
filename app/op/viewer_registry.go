package op

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// BodyViewer renders a response body for an operation; registered by viewer files in init().
// The response panel shows it as the first tab, before the JSON tree, Raw and Headers tabs.
type BodyViewer func(op *catalog.Operation, status int, body []byte) app.UI

// bodyViewers holds the registered body viewers, keyed by catalog.Viewer* constants.
var bodyViewers = map[string]BodyViewer{}

// OperationView replaces the whole form+response area for operations whose viewer needs it (chat).
// The operation page renders the docs, then this view instead of the form.
type OperationView func(op *catalog.Operation, api *catalog.API) app.UI

// operationViews holds the registered operation views, keyed by catalog.Viewer* constants.
var operationViews = map[string]OperationView{}

// bodyViewerTabs names the tab of each body viewer; a viewer not listed gets "View".
var bodyViewerTabs = map[string]string{
	catalog.ViewerJSONLD: "Entities",
	catalog.ViewerHTML:   "Preview",
	catalog.ViewerPaged:  "Pages",
	catalog.ViewerChat:   "Chat",
}

// AddBodyViewer registers v as the body viewer of the operations whose Viewer is viewer (a
// catalog.Viewer* constant); tab names its tab, "" for the name the panel knows (or "View").
// Call it from an init function.
func AddBodyViewer(viewer, tab string, v BodyViewer) {
	bodyViewers[viewer] = v
	if tab != "" {
		bodyViewerTabs[viewer] = tab
	}
}

// AddOperationView registers v as the view of the operations whose Viewer is viewer (a
// catalog.Viewer* constant), in place of their form and response. Call it from an init function.
func AddOperationView(viewer string, v OperationView) { operationViews[viewer] = v }

// bodyViewerTab returns the tab title of the body viewer for a viewer name.
func bodyViewerTab(viewer string) string {
	if t, ok := bodyViewerTabs[viewer]; ok {
		return t
	}
	return "View"
}
