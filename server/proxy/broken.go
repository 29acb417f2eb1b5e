package proxy

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// An event stream whose upstream connection breaks after some of it passed (a reset, a
// connection closed before the body's end) is not cut in turn (before any of it, the proxy
// answers 502 as for any failure after the headers): the client, which cannot tell a broken
// connection to Loupe from one behind it, is told which broke. idleBody ends the stream with
// a comment and an SSE error event in the shape the idle time-out's uses, {"error", "check",
// "source": "loupe proxy"}, and the audit line says "upstream <cause> mid-stream". A body that
// is not an event stream is still cut (flushOnAbort), as its end would pass for complete.

// brokenCause names why an upstream's body broke, and what to check, without the error's text.
func brokenCause(err error) (cause, check string) {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "connection closed before the body's end", "that the API is up; it, or a proxy in front of it, closed the connection mid-answer"
	}
	return classify(err)
}

// brokenTrailer is what closes an event stream of the API slug whose upstream broke. It starts
// with a blank line, which ends an event the upstream left half-sent (the client sees that one
// as malformed) rather than joining the comment to it.
func brokenTrailer(slug, cause, check string) []byte {
	data, _ := json.Marshal(struct { // strings only: it cannot fail
		Error  string `json:"error"`
		Check  string `json:"check"`
		Source string `json:"source"`
	}{fmt.Sprintf("%s: the API's stream broke before its end (%s); Loupe closed it", slug, cause), check, "loupe proxy"})
	return fmt.Appendf(nil, "\n\n: loupe: the upstream's stream broke (%s); stream closed\n\nevent: error\ndata: %s\n\n", cause, data)
}
