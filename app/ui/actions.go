package ui

// SendAction is posted by the Ctrl+Enter shortcut; the operation page sends its request.
const SendAction = "loupe.send"

// CancelAction is posted by the Escape key; the operation page abandons a request in flight.
const CancelAction = "loupe.cancel"

// APIModeAction tells the page that an API was pointed at its real server or back at the
// sandbox, so that what depends on it (the curl command) is shown again.
const APIModeAction = "loupe.api-mode"
