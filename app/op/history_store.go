package op

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/history"
	"loupe/app/request"
)

// The localStorage keys of the history: the list, and the setting that turns it off.
const (
	historyKey    = "loupe.history"
	historyOffKey = "loupe.history.off"
)

// HistoryChangedAction is posted when the history changes, for the history page to show it.
const HistoryChangedAction = "loupe.history.changed"

// HistoryOn reports whether the history is kept (the default); off, nothing is written.
func HistoryOn() bool {
	if !app.IsClient {
		return true
	}
	return !app.Window().Get("localStorage").Call("getItem", historyOffKey).Truthy()
}

// SetHistoryOn turns the history on or off. Turning it off keeps what was stored: Clear
// removes it.
func SetHistoryOn(on bool) {
	store := app.Window().Get("localStorage")
	if on {
		store.Call("removeItem", historyOffKey)
		return
	}
	store.Call("setItem", historyOffKey, "1")
}

// LoadHistory returns the stored history, the newest first.
func LoadHistory() []history.Entry {
	if !app.IsClient {
		return nil
	}
	v := app.Window().Get("localStorage").Call("getItem", historyKey)
	if !v.Truthy() {
		return nil
	}
	return history.Decode(v.String())
}

// ClearHistory removes every stored request, and the answers the tab kept of them.
func ClearHistory(ctx app.Context) {
	app.Window().Get("localStorage").Call("removeItem", historyKey)
	clearAnswers()
	ctx.NewAction(HistoryChangedAction)
}

// RecordHistory adds a request sent from form state st of op, and its answer, to the history,
// unless the history is off. The entry never holds a credential or a response body; the
// answer's body is kept apart, for the session only (history_answers.go), for "Save as
// walkthrough".
func RecordHistory(ctx app.Context, api *catalog.API, op *catalog.Operation, base string, st request.State, ex *Exchange) {
	if !app.IsClient || !HistoryOn() {
		return
	}
	e := history.New(api, op, base, st)
	e.ID = newEntryID()
	e.Status, e.Bytes = ex.Status, len(ex.Body)
	keepAnswer(e.ID, api.Slug, ex)
	SaveHistory(ctx, e, ex.Duration, ex.Canceled, ex.Err)
}

// SaveHistory stamps e with when it was sent, how long it took and how it failed, and stores it
// first in the history.
func SaveHistory(ctx app.Context, e history.Entry, took time.Duration, canceled bool, failure string) {
	if e.ID == "" {
		e.ID = newEntryID()
	}
	e.Time = time.Now().Add(-took).UnixMilli()
	e.Millis = took.Milliseconds()
	switch {
	case canceled:
		e.Error = "cancelled"
	case failure != "":
		e.Error = failure
	}
	list := history.Add(LoadHistory(), e)
	store := app.Window().Get("localStorage")
	// The storage may be full (a quota error): keep fewer entries rather than none.
	for len(list) > 0 && !setItem(store, historyKey, history.Encode(list)) {
		list = list[:len(list)/2]
	}
	ctx.NewAction(HistoryChangedAction)
}

// setItem stores a value and reports whether the storage took it.
func setItem(store app.Value, key, value string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	store.Call("setItem", key, value)
	return true
}
