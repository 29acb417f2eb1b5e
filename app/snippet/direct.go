package snippet

import (
	"net/url"
	"strings"

	"loupe/app/request"
)

// Direct says how the static explorer's curl command reaches an API. A static site has no
// /proxy: the command goes to the API's real server, with each credential taken from an
// environment variable, so that no snippet holds a key.
type Direct struct {
	// BaseURL is the API's real server, such as https://kgsearch.googleapis.com: the one the
	// user pointed the page at, else the first of the document's servers. "" when the document
	// names none; the command then keeps the request's path alone.
	BaseURL string
	// Prefix is the start of the request's URL that BaseURL replaces, such as /proxy/entities.
	Prefix string
	// Slug names the API; the environment variables are named after it (ENTITIES_API_KEY).
	Slug string
	// InBrowser is true when the page's requests are answered by the built-in sandbox running
	// in the browser, false when they go to the real API with the key typed in the tab.
	InBrowser bool
	// Proxied is true on a Loupe server, whose page sends its requests through the proxy: the
	// snippet is the same request sent straight to the real API.
	Proxied bool
}

// KeyVar is the environment variable a direct curl command reads credential c from: <SLUG>_TOKEN
// for a bearer token, <SLUG>_BASIC_AUTH for the base64 of user:password, <SLUG>_API_KEY else.
func KeyVar(slug string, c Credential) string {
	name := strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(slug))
	switch {
	case strings.HasPrefix(c.Value, "Bearer "):
		return name + "_TOKEN"
	case strings.HasPrefix(c.Value, "Basic "):
		return name + "_BASIC_AUTH"
	}
	return name + "_API_KEY"
}

// CurlDirect returns a curl command sending req to the API's real server as d says, one option
// per line, preceded by comments saying where the page's request is answered and which
// variables to set. A credential is written as "${VAR}" (quoteVars), so the shell puts the key
// in and the snippet never holds it.
func CurlDirect(d Direct, req *request.Request, held []Credential) string {
	var b strings.Builder
	var vars []string
	for _, c := range held {
		vars = append(vars, KeyVar(d.Slug, c))
	}
	target := strings.TrimRight(d.BaseURL, "/") + strings.TrimPrefix(req.URL, d.Prefix)
	if d.InBrowser {
		b.WriteString("# On this static site the built-in sandbox answers this request inside your browser; it is not sent over the network.\n")
		b.WriteString("# The same request to the real API")
	} else if d.Proxied {
		b.WriteString("# The page sends this request through Loupe's proxy. The same request straight to the real API")
	} else {
		b.WriteString("# The page sends this request from your browser straight to the real API")
	}
	if len(vars) > 0 {
		b.WriteString("; set " + strings.Join(vars, " and ") + " to your credential first (the key typed in this tab is never copied into a snippet)")
	}
	b.WriteString(":\n")
	var headers []string
	for i, c := range held {
		value := strings.ReplaceAll(c.Value, HeldValue, varMark+vars[i]+varMark)
		if c.In == "query" {
			sep := "?"
			if strings.Contains(target, "?") {
				sep = "&"
			}
			target += sep + url.QueryEscape(c.Name) + "=" + value
			continue
		}
		headers = append(headers, c.Name+": "+value)
	}
	comments(&b, "#", curlNotes(req))
	b.WriteString("curl")
	if streams(req.Body) {
		b.WriteString(" -N") // print each event as it arrives
	}
	if req.Method != "" && req.Method != "GET" {
		b.WriteString(" -X " + req.Method)
	}
	b.WriteString(" " + quoteVars(target))
	for _, h := range sentHeaders(req) {
		b.WriteString(" \\\n  -H " + Quote(h.Name+": "+h.Value))
	}
	for _, h := range headers {
		b.WriteString(" \\\n  -H " + quoteVars(h))
	}
	curlBody(&b, req)
	return b.String()
}

// varMark encloses a variable's name in a string quoteVars writes: user text cannot hold it.
const varMark = "\x00"

// quoteVars quotes s for a POSIX shell like Quote, except that each variable name enclosed in
// varMark is written as "${NAME}" for the shell to expand. The text around the variables is
// quoted by Quote (single quotes), never inside the double quotes: in double quotes an
// interactive bash expands ! (history) whatever is escaped, and $ and ` would need escaping
// too. So 'https://api.example/v1?q=hi!&key='"${KEY}".
func quoteVars(s string) string {
	if !strings.Contains(s, varMark) {
		return Quote(s)
	}
	var b strings.Builder
	for i, part := range strings.Split(s, varMark) {
		switch {
		case i%2 == 1:
			b.WriteString(`"${` + part + `}"`)
		case part != "":
			b.WriteString(Quote(part))
		}
	}
	return b.String()
}
