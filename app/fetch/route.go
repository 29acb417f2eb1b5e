package fetch

import (
	"net/url"
	"strings"
	"sync"
)

// This file holds the one place that decides where a request goes: the Loupe server, the
// sandbox module running in the page (the static explorer), or a real API with the user's key.

// Config says how the page reaches the APIs. The zero value is the Loupe server at the root of
// its host: every URL is fetched as given.
type Config struct {
	// Static is true in the static explorer, where no Loupe server answers /proxy/<slug>/…: such
	// requests go to the API's real base URL when UseRealAPI gave one, else to the sandbox
	// module. The Loupe server's own tools (the walkthrough service, the script syntax check) go
	// to the sandbox module too, whatever API is real.
	Static bool
	// Base is the site's sub-path without a trailing slash, such as "/api"; "" at the root of a
	// host. A root-relative URL ("/catalog.json", "/proxy/chat/…") is fetched under it.
	Base string
	// Modules are the sandbox modules (wasm/sandbox/<slug>, wasm/own, wasm/walkthroughs), each
	// fetched on the first request it answers. Only read when Static is set.
	Modules Modules
}

// RealAPI is a real API the static explorer sends one API's requests to.
type RealAPI struct {
	// BaseURL is the API's server, such as https://kgsearch.googleapis.com; the path after
	// /proxy/<slug> is appended to it.
	BaseURL string
	// Key is the credential the user typed. It is held in memory only and sent as Auth says.
	Key string
	// Auth is where the key goes, from the API's security scheme.
	Auth Auth
}

// Auth says how a key is sent, from an OpenAPI security scheme.
type Auth struct {
	// In is "header" or "query"; "" sends nothing.
	In string
	// Name is the header or query parameter, such as Authorization or key.
	Name string
	// Prefix goes before the key in a header, such as "Bearer ".
	Prefix string
}

// Route is where a request goes, as Plan decides it.
type Route struct {
	// Via is ViaNetwork, ViaSandbox or ViaRealAPI.
	Via int
	// URL is what to fetch (ViaNetwork, ViaRealAPI: the key is added) or the /proxy/<slug>/…
	// path (with its query) the sandbox module answers.
	URL string
	// Slug is the API of a /proxy request; "" otherwise (a Loupe tool the sandbox module answers).
	Slug string
	// Refused says why the request is not sent at all (ViaRefused).
	Refused string
}

// Where a request goes (Route.Via).
const (
	// ViaNetwork fetches the URL as is: the Loupe server or any other address.
	ViaNetwork = iota
	// ViaSandbox asks the sandbox module running in the page.
	ViaSandbox
	// ViaRealAPI fetches the API's real base URL directly, with the user's key.
	ViaRealAPI
	// ViaRefused sends nothing: Do answers the error Route.Refused says.
	ViaRefused
)

var routing struct {
	sync.Mutex
	cfg  Config
	real map[string]RealAPI
}

// Configure sets how the page reaches the APIs. The app calls it once, as it starts.
func Configure(c Config) {
	routing.Lock()
	defer routing.Unlock()
	c.Base = strings.TrimRight(c.Base, "/")
	routing.cfg = c
}

// Current returns the configuration Configure set.
func Current() Config {
	routing.Lock()
	defer routing.Unlock()
	return routing.cfg
}

// UseRealAPI sends slug's requests to a real API (static explorer only); nil goes back to the
// built-in sandbox and forgets the key. The key stays in this variable: never in storage, the
// URL or a log, and the browser is told to keep no copy of the calls that carry it (Do).
func UseRealAPI(slug string, api *RealAPI) {
	routing.Lock()
	defer routing.Unlock()
	if routing.real == nil {
		routing.real = map[string]RealAPI{}
	}
	if api == nil {
		delete(routing.real, slug)
		return
	}
	routing.real[slug] = *api
}

// RealAPIOf returns the real API slug is pointed at, and whether it is.
func RealAPIOf(slug string) (RealAPI, bool) {
	routing.Lock()
	defer routing.Unlock()
	a, ok := routing.real[slug]
	return a, ok
}

// Plan decides where a request for rawURL goes. origin is the page's scheme://host; an
// absolute URL on it is treated as root-relative (the DRF sandboxes write absolute links).
func Plan(rawURL, origin string) Route {
	routing.Lock()
	cfg := routing.cfg
	routing.Unlock()
	path := rawURL
	if origin != "" && strings.HasPrefix(rawURL, origin+"/") {
		path = strings.TrimPrefix(rawURL, origin)
	}
	if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") {
		return Route{Via: ViaNetwork, URL: rawURL} // another host, or relative to the page
	}
	if cfg.Base != "" && (path == cfg.Base || strings.HasPrefix(path, cfg.Base+"/")) {
		path = strings.TrimPrefix(path, cfg.Base) // already under the base (a link the site wrote)
	}
	rest, isProxy := strings.CutPrefix(path, "/proxy/")
	if cfg.Static && isLoupeTool(path) {
		return Route{Via: ViaSandbox, URL: path}
	}
	if !cfg.Static || !isProxy {
		return Route{Via: ViaNetwork, URL: cfg.Base + path}
	}
	slug, tail, _ := strings.Cut(rest, "/")
	real, ok := RealAPIOf(slug)
	if !ok {
		return Route{Via: ViaSandbox, URL: path, Slug: slug}
	}
	if isSandboxOnly(tail) {
		return Route{Via: ViaRefused, URL: path, Slug: slug, Refused: "this is a call of Loupe's built-in sandbox only (" +
			sandboxOnlyPrefix + "…), and this page sends its calls to the real API, which has no such call: " +
			"go back to the sandbox to use it"}
	}
	return Route{Via: ViaRealAPI, URL: realURL(real, "/"+tail), Slug: slug}
}

// sandboxOnlyPrefix starts the path of every call only Loupe's built-in sandboxes have (the
// cluster's picture and fault controls, a sandbox's reset): never sent to a real API, whose
// server would get the user's key with a call it does not know (or, worse, one it does).
const sandboxOnlyPrefix = "_sandbox/"

// isSandboxOnly reports whether tail (the path after /proxy/<slug>/, with its query) is one of
// the sandboxes' own calls; dot segments and escapes count as what they resolve to.
func isSandboxOnly(tail string) bool {
	p, _, _ := strings.Cut(tail, "?")
	if dec, err := url.PathUnescape(p); err == nil {
		p = dec
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." {
			continue
		}
		return strings.HasPrefix(seg+"/", sandboxOnlyPrefix)
	}
	return false
}

// scriptSyntaxPath is the script workspace's syntax check (server/sandbox/script.SyntaxCheckPath).
const scriptSyntaxPath = "/tools/script/syntax"

// isLoupeTool reports whether path (root-relative, perhaps with a query) is one of the Loupe
// server's own endpoints that the sandbox module also answers in the static explorer: the
// walkthrough service's POST /walkthroughs/<id>/run, /walkthroughs/run, /walkthroughs/check
// and /walkthroughs/record, the script workspace's POST /tools/script/syntax and what the
// sandbox of an API of your own inferred, GET /sandbox/<slug>/_sandbox/inference. A
// walkthrough's page, /walkthroughs/<id>, is not one.
func isLoupeTool(path string) bool {
	p, _, _ := strings.Cut(path, "?")
	switch p {
	case scriptSyntaxPath, "/walkthroughs/run", "/walkthroughs/check", "/walkthroughs/record":
		return true
	}
	if slug, ok := strings.CutPrefix(p, "/sandbox/"); ok {
		slug, ok = strings.CutSuffix(slug, "/_sandbox/inference")
		return ok && slug != "" && !strings.Contains(slug, "/")
	}
	id, ok := strings.CutPrefix(p, "/walkthroughs/")
	id, ok2 := strings.CutSuffix(id, "/run")
	return ok && ok2 && id != "" && !strings.Contains(id, "/")
}

// realURL is the real API's address for tail (path and query), with the key in the query when
// the API's scheme says so.
func realURL(api RealAPI, tail string) string {
	u := strings.TrimRight(api.BaseURL, "/") + tail
	if api.Auth.In != "query" || api.Key == "" {
		return u
	}
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + url.QueryEscape(api.Auth.Name) + "=" + url.QueryEscape(api.Key)
}

// authHeader is the header carrying the key of a real API, or "" when it goes in the query.
func authHeader(api RealAPI) (name, value string) {
	if api.Auth.In != "header" || api.Key == "" {
		return "", ""
	}
	return api.Auth.Name, api.Auth.Prefix + api.Key
}
