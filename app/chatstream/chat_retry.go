package chatstream

// Sending an answer again. An answer that failed in a way the same request may mend (the
// stream was cut, no response came, the API or a proxy on the way failed or asked to wait)
// offers Send again on the conversation's last turn. Pressing it drops that turn and sends the
// conversation before it, unchanged, once more; the new turn keeps showing what the failed
// answer had said (Turn.Earlier) until the new answer says something, so nothing that arrived
// disappears before its replacement does.

// RetryableStatus reports whether an HTTP status says that the same request may succeed later:
// a time-out (408), too many requests (429) or a server's failure (5xx). Any other 4xx is a
// request the user must change.
func RetryableStatus(status int) bool {
	return status == 408 || status == 429 || status >= 500
}

// CanRetry reports whether sending the same request again may mend the answer: it ended
// without its end (the stream was cut, or no response came), or with a failure of the API or a
// server on the way (408, 429, 5xx, an error event mid-stream). A stopped answer, one still
// streaming and one refused for a reason the user must fix cannot.
func (a *Answer) CanRetry() bool {
	return a != nil && a.retry && !a.Streaming && !a.Stopped
}

// said reports whether the answer has said anything: text or a tool call.
func (a *Answer) said() bool {
	return a != nil && (a.md.Text() != "" || len(a.Calls) > 0)
}

// Shown is the answer the turn shows and the conversation holds: its own, or, while that one
// has said nothing, the earlier answer it was sent again to replace (Earlier).
func (t *Turn) Shown() *Answer {
	if t.Earlier != nil && !t.Answer.said() {
		return t.Earlier
	}
	return t.Answer
}

// RetryTurns returns the conversation Send again sends, and the failed turn it replaces: the
// turns before the last one, when the last is an assistant turn whose answer can be sent again
// (CanRetry). ok is false otherwise. The result shares turns' backing array up to its length
// only: appending to it never overwrites the failed turn.
func RetryTurns(turns []*Turn) (before []*Turn, failed *Turn, ok bool) {
	n := len(turns)
	if n == 0 || turns[n-1].Role != "assistant" || !turns[n-1].Answer.CanRetry() {
		return nil, nil, false
	}
	return turns[: n-1 : n-1], turns[n-1], true
}

// Retry returns the turn that takes the failed one's place when it is sent again: an answer
// about to be requested (NewAnswer's), which shows what the failed turn showed until it says
// something itself.
func Retry(failed *Turn, next *Answer) *Turn {
	t := &Turn{Role: "assistant", Answer: next}
	if shown := failed.Shown(); shown.said() {
		t.Earlier = shown
	}
	return t
}
