package op

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// SidePanel renders a panel beside an operation's preview and response, for the operations of
// one API that need it (the cluster's shard picture); nil when the operation has none. Sending
// says a request of the page is in flight.
type SidePanel func(api *catalog.API, op *catalog.Operation, sending bool) app.UI

// sidePanels holds the registered side panels, keyed by API slug; panel files register theirs
// in init().
var sidePanels = map[string]SidePanel{}

// AddSidePanel registers p as the side panel of the operations of the API slug. Call it from an
// init function.
func AddSidePanel(slug string, p SidePanel) { sidePanels[slug] = p }

// sidePanel is the operation's side panel, or an empty element.
func sidePanel(api *catalog.API, op *catalog.Operation, sending bool) app.UI {
	if f, ok := sidePanels[api.Slug]; ok {
		if ui := f(api, op, sending); ui != nil {
			return ui
		}
	}
	return app.If(false, nil)
}
