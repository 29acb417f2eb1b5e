package chatstream

import (
	"encoding/json"
	"io"
	"strings"

	"loupe/app/sse"
)

// proxyRefusal is an answer Loupe's own proxy wrote instead of the API (its X-Loupe-Error
// header says so): the request was refused before it was sent, or the API could not be
// reached. Its body is {"error": sentence, "check": what to look at}.
type proxyRefusal struct {
	// Check is what the proxy says to look at; "" when it says nothing.
	Check string
}

// readProxyError reads the proxy's own error body, answered with status, and reports it,
// over. The API out of reach (502, 504), a database away (503) or the rate limit (429) may be
// mended by sending again; a refusal (another 4xx) needs the request or the configuration
// changed.
func readProxyError(status int, r io.Reader, update func(func(*chatSnapshot))) {
	data, err := io.ReadAll(io.LimitReader(r, chatMaxBody))
	var body struct {
		Error string `json:"error"`
		Check string `json:"check"`
	}
	if json.Unmarshal(data, &body) != nil || body.Error == "" {
		body.Error = strings.TrimSpace(string(data[:min(len(data), 300)]))
	}
	update(func(s *chatSnapshot) {
		s.apiErr, s.proxy = &sse.APIError{Message: body.Error}, &proxyRefusal{Check: body.Check}
		s.retry = RetryableStatus(status)
		if err != nil {
			s.cut, s.retry = err.Error(), true
		}
		s.over = true
	})
}

// proxyErrorText is the title and hint of an answer of the proxy's own, by its status.
func proxyErrorText(status int, p *proxyRefusal) (title, hint string) {
	switch status {
	case 502, 504:
		title, hint = "Loupe's proxy could not get an answer from the API", "No answer came back from the API."
	default:
		title, hint = "Refused by Loupe's proxy, not by the API", "The request never reached the API."
	}
	if p.Check != "" {
		hint += " Check: " + p.Check
	}
	return title, hint
}
