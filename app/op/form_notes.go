package op

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/fetch"
)

// FormNote renders a note an operation page shows between the operation's docs and its form,
// for a feature that knows something about sending it (the OAuth scopes it needs); it may
// render an empty element when it has nothing to say.
type FormNote func(api *catalog.API, op *catalog.Operation) app.UI

// formNotes holds the registered notes, in the order they show.
var formNotes []FormNote

// AddFormNote registers n; the page shows the notes in the order they were added. Call it from
// an init function.
func AddFormNote(n FormNote) { formNotes = append(formNotes, n) }

// ErrorHint says what to do about an error response from its headers (the scope an access token
// lacks), or "" when it has nothing to say.
type ErrorHint func(headers []fetch.Header) string

// errorHints holds the registered hints, in the order they are asked.
var errorHints []ErrorHint

// AddErrorHint registers h; the response panel shows the first hint any registered one gives,
// else its own hint for the status. Call it from an init function.
func AddErrorHint(h ErrorHint) { errorHints = append(errorHints, h) }

// errorHint is the first registered hint for headers, or "".
func errorHint(headers []fetch.Header) string {
	for _, h := range errorHints {
		if hint := h(headers); hint != "" {
			return hint
		}
	}
	return ""
}
