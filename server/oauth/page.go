package oauth

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"net/http"
	"sort"
)

// pageStyle is the pages' only style; their CSP allows it by hash.
const pageStyle = `body{font:16px system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:grid;place-items:center;min-height:100vh;margin:0}` +
	`main{background:#1e293b;padding:2rem;border-radius:.5rem;max-width:36rem}h1{font-size:1.3rem;margin-top:0}` +
	`code{background:#0f172a;padding:.1rem .3rem;border-radius:.2rem}a{color:#7dd3fc}.check{color:#fcd34d}`

var pageCSP = func() string {
	sum := sha256.Sum256([]byte(pageStyle))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}()

var pageTemplate = template.Must(template.New("oauth").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{.Title}} · Loupe</title><style>{{.Style}}</style></head>
<body><main id="oauth-page" data-status="{{.Status}}">
<h1 id="oauth-title">{{.Title}}</h1>
<p id="oauth-message">{{.Message}}</p>
{{if .Check}}<p class="check" id="oauth-check">{{.Check}}</p>{{end}}
<p>Nothing was stored. <a id="oauth-back" href="{{.Back}}">Back to Loupe</a></p>
</main></body></html>
`))

// page answers a short HTML page: what happened (message), what to do (check), and a link
// back. It is every bad outcome of the flow, and never holds a token, a code or a state.
func page(w http.ResponseWriter, status int, title, message, check, back string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	_ = pageTemplate.Execute(w, struct {
		Style                       template.CSS
		Status                      int
		Title, Message, Check, Back string
	}{template.CSS(pageStyle), status, title, message, check, back})
}

func sortStrings(s []string) { sort.Strings(s) }
