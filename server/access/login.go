package access

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/url"
	"strings"
)

const (
	loginPath  = "/login"
	logoutPath = "/logout"
)

// loginStyle is the login page's only style; the page's CSP allows it by hash.
const loginStyle = `body{font:16px system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:grid;place-items:center;min-height:100vh;margin:0}` +
	`form{background:#1e293b;padding:2rem;border-radius:.5rem;display:grid;gap:.75rem;min-width:18rem}` +
	`input,button{font:inherit;padding:.5rem;border-radius:.25rem;border:1px solid #475569}` +
	`button{background:#38bdf8;color:#0f172a;border:0;cursor:pointer}.error{color:#fca5a5}`

var loginStyleHash = func() string {
	sum := sha256.Sum256([]byte(loginStyle))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

// loginCSP allows the login page nothing but its own form and style.
var loginCSP = "default-src 'none'; style-src " + loginStyleHash + "; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

var loginPage = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Log in · Loupe</title><style>{{.Style}}</style></head>
<body><form id="login" method="post" action="/login">
<h1>Loupe</h1>
{{if .Error}}<p class="error" id="login-error">{{.Error}}</p>{{end}}
<label>Name <input name="name" autocomplete="username" required autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<input type="hidden" name="next" value="{{.Next}}">
<button type="submit">Log in</button>
</form></body></html>
`))

type loginData struct {
	Style template.CSS
	Error string
	Next  string
}

func (g *Gate) renderLogin(w http.ResponseWriter, status int, next, msg string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", loginCSP)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = loginPage.Execute(w, loginData{Style: template.CSS(loginStyle), Error: msg, Next: next})
}

// askLogin answers a request without a session: 401 JSON for API paths, the login page for
// pages (with the path to return to).
func (g *Gate) askLogin(w http.ResponseWriter, r *http.Request) {
	if wantsJSON(r) || r.Method != http.MethodGet {
		deny(w, r, http.StatusUnauthorized, "log in first", "open Loupe in a browser and log in at /login")
		return
	}
	http.Redirect(w, r, loginPath+"?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
}

var loginCOP = http.NewCrossOriginProtection()

func (g *Gate) serveLogin(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		g.renderLogin(w, http.StatusOK, localPath(r.URL.Query().Get("next")), "")
	case http.MethodPost:
		if err := loginCOP.Check(r); err != nil {
			deny(w, r, http.StatusForbidden, "cross-origin login refused", "log in from Loupe's own page")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
		if err := r.ParseForm(); err != nil {
			g.renderLogin(w, http.StatusBadRequest, "/", "The form could not be read.")
			return
		}
		g.attempt(w, r, localPath(r.PostForm.Get("next")), r.PostForm.Get("name"), r.PostForm.Get("password"))
	default:
		w.Header().Set("Allow", "GET, POST")
		deny(w, r, http.StatusMethodNotAllowed, "use GET or POST", "/login")
	}
}

// serveLogout ends the session on the server (its cookie is refused from now on, wherever it
// was copied) and clears the cookie.
func (g *Gate) serveLogout(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || loginCOP.Check(r) != nil {
		w.Header().Set("Allow", "POST")
		deny(w, r, http.StatusMethodNotAllowed, "log out with a POST from Loupe's page", "/logout")
		return
	}
	if c, err := r.Cookie(cookieName); err == nil && c.Value != "" {
		if cs, ok := g.sessions.(CheckedSessions); ok {
			if err := cs.DeleteChecked(c.Value); err != nil {
				g.opts.Logger.Error("logout: ending a session", "error", err)
				storeAway(w, r, "end your session (you are still logged in)")
				return
			}
		} else {
			g.sessions.Delete(c.Value)
		}
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: g.opts.Secure, SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, loginPath, http.StatusSeeOther)
}

// localPath keeps a return path on this site: a path of printable ASCII without spaces or
// backslashes, which neither as sent nor decoded starts with // or holds a . or .. segment.
// Anything else (a tab, which a browser's form rules would drop to make //host, an encoded
// separator, an absolute URL) becomes "/".
func localPath(p string) string {
	if !strings.HasPrefix(p, "/") {
		return "/"
	}
	for i := 0; i < len(p); i++ {
		if b := p[i]; b <= ' ' || b >= 0x7f || b == '\\' {
			return "/"
		}
	}
	path, _, _ := strings.Cut(p, "?")
	path, _, _ = strings.Cut(path, "#")
	dec, err := url.PathUnescape(path)
	if err != nil {
		return "/"
	}
	for _, s := range []string{path, dec} {
		if strings.HasPrefix(s, "//") || strings.ContainsAny(s, "\\\x00\t\n\r") {
			return "/"
		}
		for _, seg := range strings.Split(s, "/") {
			if seg == "." || seg == ".." {
				return "/"
			}
		}
	}
	if dec != path && (strings.Contains(dec, "//") || strings.ContainsFunc(dec, func(r rune) bool { return r < ' ' || r == 0x7f })) {
		return "/"
	}
	return p
}
