package fetch

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Modules are the static explorer's sandbox modules, by their URLs: the first request one
// answers fetches it, so the first Send of an API downloads that API's module only.
type Modules struct {
	// APIs holds the module of each built-in API (wasm/sandbox/<slug>), by slug; the script
	// API's also answers the script workspace's syntax check.
	APIs map[string]string `json:"apis"`
	// Own is the module of the APIs of your own (wasm/own): every /proxy/<slug>/… whose slug
	// is not in APIs, and what such an API's sandbox inferred.
	Own string `json:"own"`
	// Walkthroughs is the walkthrough engine (wasm/walkthroughs): POST /walkthroughs/….
	Walkthroughs string `json:"walkthroughs"`
}

// ParseModules reads Modules as `loupe static` writes them into the page (JSON); "" is none.
func ParseModules(s string) (Modules, error) {
	var m Modules
	if s == "" {
		return m, nil
	}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return Modules{}, fmt.Errorf("the page's list of sandbox modules cannot be read (%v): rebuild the site with `loupe static`", err)
	}
	return m, nil
}

// For returns the URL of the module that answers a request Plan sent to the sandbox (Via is
// ViaSandbox), "" when this page has none for it.
func (m Modules) For(r Route) string {
	if r.Slug != "" { // /proxy/<slug>/…
		if u, ok := m.APIs[r.Slug]; ok {
			return u
		}
		return m.Own
	}
	p, _, _ := strings.Cut(r.URL, "?")
	switch {
	case p == scriptSyntaxPath:
		return m.APIs["script"]
	case strings.HasPrefix(p, "/sandbox/"): // /sandbox/<slug>/_sandbox/inference
		return m.Own
	case strings.HasPrefix(p, "/walkthroughs/"):
		return m.Walkthroughs
	}
	return ""
}
