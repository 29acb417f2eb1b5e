package fromdoc

import (
	"net/http"
	"strings"
)

// problem is an answer of the sandbox's own, in the problem details format (RFC 9457,
// application/problem+json): a refused request names each wrong field and what was expected.
type problem struct {
	Type     string       `json:"type"`
	Title    string       `json:"title"`
	Status   int          `json:"status"`
	Detail   string       `json:"detail"`
	Instance string       `json:"instance,omitempty"`
	Errors   []fieldError `json:"errors,omitempty"`

	allow  []string // 405: the methods the path documents
	scheme string   // 401: the WWW-Authenticate challenge
}

// fieldError is one wrong part of a request.
type fieldError struct {
	// In is where: path, query, header, cookie, body or security.
	In string `json:"in"`
	// Name is the parameter, the body field as a JSON path ($.owner.name), or the security
	// scheme.
	Name string `json:"name"`
	// Problem says what is wrong with it.
	Problem string `json:"problem"`
	// Expected says what the document expects instead.
	Expected string `json:"expected,omitempty"`
}

// problemType is the type URI of the sandbox's problems: a tag URI (RFC 4151) names them
// without pointing at a page that may not exist.
const problemType = "tag:loupe.dev,2025:sandbox/"

// write sends the problem.
func (p *problem) write(w http.ResponseWriter, r *http.Request) {
	if p.Type == "" {
		p.Type = problemType + strings.ToLower(strings.ReplaceAll(http.StatusText(p.Status), " ", "-"))
	}
	if p.Title == "" {
		p.Title = http.StatusText(p.Status)
	}
	if p.Instance == "" && r != nil {
		p.Instance = r.URL.Path
	}
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	if len(p.allow) > 0 {
		h.Set("Allow", strings.Join(p.allow, ", "))
	}
	if p.scheme != "" {
		h.Set("WWW-Authenticate", p.scheme)
	}
	body, _ := marshal(p)
	w.WriteHeader(p.Status)
	if r == nil || r.Method != http.MethodHead {
		_, _ = w.Write(append(body, '\n'))
	}
}
