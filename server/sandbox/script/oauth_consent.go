package script

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/url"
)

// pageStyle is the consent and error pages' only style, allowed by its hash in pageCSP.
const pageStyle = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
main{max-width:36rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #c9ced6;border-radius:8px}
h1{font-size:1.35rem;margin-top:0}ul{padding-left:1.2rem}li{margin:.5rem 0}code{font-size:.85em;color:#3b4350;word-break:break-all}
.actions{display:flex;gap:1rem;margin-top:1.5rem}button{font:inherit;padding:.5rem 1.5rem;border-radius:6px;border:1px solid #1b1f24;cursor:pointer}
button.allow{background:#0b57d0;border-color:#0b57d0;color:#fff}button.deny{background:#fff;color:#1b1f24}
button:focus-visible{outline:3px solid #f2a60d;outline-offset:2px}.problem{border-left:4px solid #b3261e;padding-left:1rem}
@media (prefers-color-scheme:dark){body{background:#14171b;color:#e6e8eb}main{background:#1d2126;border-color:#3b4350}code{color:#c3c9d2}button.deny{background:#1d2126;color:#e6e8eb;border-color:#e6e8eb}}`

// pageCSP is the pages' Content-Security-Policy without form-action: nothing runs, nothing
// loads, only pageStyle applies, and no site may frame the page.
var pageCSP = "default-src 'none'; style-src 'sha256-" + hashOf(pageStyle) + "'; base-uri 'none'; frame-ancestors 'none'"

// hashOf is the base64 SHA-256 of s, as a CSP hash source wants it.
func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return base64.StdEncoding.EncodeToString(sum[:])
}

var consentPage = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in to the script sandbox</title><style>{{.Style}}</style></head>
<body><main>
<h1>{{.Client}} wants to access your script sandbox account</h1>
<p>Signed in as <strong>{{.Account}}</strong>, the sandbox's own account (no password; nothing leaves this server).</p>
<p>If you allow it, <strong>{{.Client}}</strong> (client ID <code>{{.ClientID}}</code>) may:</p>
<ul>
{{range .Scopes}}<li>{{.Description}}<br><code>{{.Name}}</code></li>
{{end}}</ul>
<p>Either way you go back to <code>{{.Back}}</code>.</p>
<form method="post" action="authorize">
<input type="hidden" name="request" value="{{.Request}}">
<div class="actions">
<button class="allow" type="submit" name="decision" value="allow">Allow</button>
<button class="deny" type="submit" name="decision" value="deny">Deny</button>
</div>
</form>
</main></body></html>
`))

var errorPage = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign-in request refused</title><style>{{.Style}}</style></head>
<body><main>
<h1>The sign-in request was refused</h1>
<p class="problem" role="alert">{{.Problem}}</p>
<p>Nothing was granted. Go back to the app and start the sign-in again.</p>
</main></body></html>
`))

// renderConsent shows the consent page of req, answered with the opaque request id.
func renderConsent(w http.ResponseWriter, id string, req *authRequest) {
	u, _ := url.Parse(req.redirect)
	back := u.Scheme + "://" + u.Host
	scopes := make([]Scope, len(req.scopes))
	for i, s := range req.scopes {
		scopes[i] = Scope{Name: s, Description: scopeDescription(s)}
	}
	setPageHeaders(w, "'self' "+back)
	w.WriteHeader(http.StatusOK)
	_ = consentPage.Execute(w, map[string]any{
		"Style": template.CSS(pageStyle), "Client": req.client.Name, "ClientID": req.client.ID,
		"Account": SandboxAccount, "Scopes": scopes, "Back": back + u.Path, "Request": id,
	})
}

// renderAuthError shows a refused authorization request with status code.
func renderAuthError(w http.ResponseWriter, code int, problem string) {
	setPageHeaders(w, "'none'")
	w.WriteHeader(code)
	_ = errorPage.Execute(w, map[string]any{"Style": template.CSS(pageStyle), "Problem": problem})
}

// setPageHeaders sets an HTML page's type, its policy with the form-action sources and no
// caching or framing.
func setPageHeaders(w http.ResponseWriter, formAction string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP+"; form-action "+formAction)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}
