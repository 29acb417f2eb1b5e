package chatstream

import (
	"html"
	"io"
	"regexp"
	"strings"
	"time"

	"loupe/app/sse"
)

// readChatBody reads a whole answer (stream false) or an error body of the given content type
// and reports it, over. An error a later request may not meet (RetryableStatus), and a body
// cut short, may be mended by sending again.
func readChatBody(status int, contentType string, r io.Reader, update func(func(*chatSnapshot))) {
	data, err := io.ReadAll(io.LimitReader(r, chatMaxBody))
	var acc sse.Chat
	switch {
	case status >= 400 && isHTML(contentType, data):
		acc.Err = htmlError(data)
	case status >= 400:
		acc.Err = sse.ParseError(data)
		if acc.Err == nil {
			acc.Err = &sse.APIError{Message: "the API answered with no body"}
		}
	case acc.AddCompletion(data) != nil:
		acc.Err = &sse.APIError{Message: "the answer is not a chat completion: " + strings.TrimSpace(string(data[:min(len(data), 300)]))}
	}
	update(func(s *chatSnapshot) {
		s.content, s.calls, s.finish, s.usage, s.apiErr = acc.Content(), chatCallsOf(acc.ToolCalls()), acc.FinishReason, acc.Usage, acc.Err
		s.chunks = acc.ContentChunks
		if s.firstAt.IsZero() && (s.content != "" || len(s.calls) > 0) {
			s.firstAt = time.Now()
		}
		s.retry = status >= 400 && RetryableStatus(status)
		if err != nil {
			s.cut, s.retry = err.Error(), true
		}
		s.over = true
	})
}

// isHTML reports whether an error body is a web page rather than an API's error: what a proxy
// on the way (nginx's 502 Bad Gateway, a load balancer's 503) answers in the API's place.
func isHTML(contentType string, data []byte) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	if strings.EqualFold(strings.TrimSpace(mt), "text/html") {
		return true
	}
	head := strings.ToLower(strings.TrimSpace(string(data[:min(len(data), 64)])))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html")
}

// htmlTitle finds an HTML page's title.
var htmlTitle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)

// htmlError says what an HTML error page is, by its title, rather than showing its markup.
func htmlError(data []byte) *sse.APIError {
	msg := "an HTML page came back instead of the API's error: a proxy or load balancer on the way answered"
	if m := htmlTitle.FindSubmatch(data); m != nil {
		if title := strings.Join(strings.Fields(html.UnescapeString(string(m[1]))), " "); title != "" {
			if len(title) > 120 {
				title = strings.ToValidUTF8(title[:120], "") + "…"
			}
			msg += " \u201c" + title + "\u201d"
		}
	}
	return &sse.APIError{Message: msg}
}
