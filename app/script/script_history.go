package script

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/history"
	"loupe/app/op"
)

// recordScriptCall adds a call the script workspace sent to the history, unless it is off:
// its URL and body read back into its operation's form, so that the entry reopens that form.
func recordScriptCall(ctx app.Context, api *catalog.API, c *scriptCall, took time.Duration) {
	if !app.IsClient || !op.HistoryOn() || api == nil {
		return
	}
	operation := api.Operation(c.Operation)
	if operation == nil {
		return
	}
	e := history.Sent(api, operation, "/proxy/"+api.Slug, c.URL, c.Body)
	e.Status, e.Bytes = c.Status, len(c.Response)
	failure := ""
	if c.Status == 0 {
		failure = c.Err
	}
	op.SaveHistory(ctx, e, took, false, failure)
}
