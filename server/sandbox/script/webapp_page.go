package script

import (
	"fmt"
	"html"
	"mime"
	"net/http"
	"strings"

	"loupe/server/sandbox/script/engine"
)

// A web app's HtmlService output never runs on Loupe's origin. As Apps Script serves it from
// another origin inside its page, the sandbox answers the web app's URL with a page of its own
// that runs nothing and frames the app's HTML, which is served from a one-time address
// (frames.go) with a Content-Security-Policy sandbox: the HTML's scripts run with an opaque
// origin (no cookies, no storage, no calls to Loupe as the user), and only Loupe's pages may
// frame it. ContentService output is served as it is, with its MIME type, under the policy of
// API answers (nothing in it runs).

// Policies of a web app's answers.
const (
	// outerCSP is the page at the web app's URL: it only frames the app.
	outerCSP = "default-src 'none'; frame-src 'self'; img-src https: data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
	// frameCSP is the app's own HTML: its scripts and styles, inline or from https sites, in a
	// sandbox without Loupe's origin.
	frameCSP = "sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads; default-src 'none'; " +
		"script-src 'unsafe-inline' 'unsafe-eval' https:; style-src 'unsafe-inline' https:; img-src data: blob: https:; " +
		"font-src data: https:; media-src data: blob: https:; connect-src https:; form-action https:; frame-ancestors 'self'"
	// textCSP is a ContentService answer or an error page: nothing runs, nothing loads.
	textCSP = "default-src 'none'; sandbox; frame-ancestors 'none'"
)

// writeOutput answers a web app's run: its output, or the error page of its failure. rest is
// the request's path after /macros/ (to find the frames' address from it).
func (h *handler) writeOutput(w http.ResponseWriter, r *http.Request, rest string, res engine.Result) {
	if f := res.Fail; f != nil {
		status := http.StatusInternalServerError
		if f.Limit == engine.LimitClient {
			return // nobody to answer
		}
		msg := f.Message
		if f.Type != "" {
			msg = f.Type + ": " + msg
		}
		where := ""
		if len(f.Stack) > 0 {
			where = fmt.Sprintf("(line %d, function %s)", f.Stack[0].LineNumber, f.Stack[0].Function)
		}
		webAppError(w, status, msg, where)
		return
	}
	out := res.Output
	hdr := w.Header()
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Content-Type-Options", "nosniff")
	if out.Kind == "text" {
		hdr.Set("Content-Security-Policy", textCSP)
		hdr.Set("Content-Type", out.MimeType+"; charset=utf-8")
		if out.FileName != "" {
			hdr.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": out.FileName}))
		}
		if r.Method != http.MethodHead {
			_, _ = w.Write([]byte(out.Content))
		}
		return
	}
	token := h.frames.put(out.Content)
	src := strings.Repeat("../", strings.Count(rest, "/")) + "frames/" + token
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
	fmt.Fprintf(&b, "<title>%s</title>", html.EscapeString(out.Title))
	for _, m := range out.Meta {
		fmt.Fprintf(&b, "<meta name=\"%s\" content=\"%s\">", html.EscapeString(m[0]), html.EscapeString(m[1]))
	}
	if strings.HasPrefix(out.FaviconURL, "https://") {
		fmt.Fprintf(&b, "<link rel=\"icon\" href=\"%s\">", html.EscapeString(out.FaviconURL))
	}
	b.WriteString("<style>html,body{margin:0;height:100%}iframe{display:block;border:0;width:100%;height:100%}</style></head><body>")
	fmt.Fprintf(&b, "<iframe id=\"sandboxFrame\" title=\"%s\" src=\"%s\" sandbox=\"allow-scripts allow-forms allow-popups allow-modals allow-downloads\"></iframe>",
		html.EscapeString(out.Title), html.EscapeString(src))
	b.WriteString("</body></html>\n")
	hdr.Set("Content-Security-Policy", outerCSP)
	hdr.Set("X-Frame-Options", "DENY")
	hdr.Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
}

// webAppError is the page of a web app that cannot answer: what happened and what to do.
func webAppError(w http.ResponseWriter, status int, msg, detail string) {
	hdr := w.Header()
	hdr.Set("Content-Security-Policy", textCSP)
	hdr.Set("Content-Type", "text/html; charset=utf-8")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	page := "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Error</title></head><body>" +
		"<h1>Error</h1><p id=\"message\">" + html.EscapeString(msg) + "</p>"
	if detail != "" {
		page += "<p id=\"detail\">" + html.EscapeString(detail) + "</p>"
	}
	_, _ = w.Write([]byte(page + "</body></html>\n"))
}
