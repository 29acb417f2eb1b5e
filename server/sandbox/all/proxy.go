package all

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"loupe/server/config"
	"loupe/server/sandbox/state"
)

// Proxy serves /proxy/<slug>/<path> from the built-in sandboxes the way the Loupe server's proxy
// does when an API goes to its sandbox: it adds the API's sandbox credential, placed as the
// API's security scheme says, strips the prefix and hands the request to that API's sandbox.
// The static explorer's sandbox module (wasm/sandboxes) serves the browser's requests with it,
// so the app sends the same requests in both modes. Its requests carry no sandbox session, so
// they all share one (state.Local): the tab's user.
type Proxy struct {
	opts  Options
	creds map[string]func(*http.Request) // nil for an API that takes no credential
	apis  map[string]http.Handler
}

// NewProxy builds every sandbox with its documented default credential. Without
// opts.Registry, their state is kept in memory (state.Memory) for as long as the Proxy lives:
// the state.Store interface and per-session registry the server uses, with its in-memory
// implementation, so the sandbox code has one shape in both hosts.
func NewProxy(opts Options) (*Proxy, error) {
	opts.Key = nil // the default credential, which the default configuration sends
	if opts.Registry == nil {
		// One session (the tab's), whose changes the store keeps until the page goes away: an
		// idle eviction frees only the live state, rebuilt from the store on the next request.
		opts.Registry = state.NewRegistry(state.NewMemory(), state.Options{})
	}
	apis, err := New(opts)
	if err != nil {
		return nil, err
	}
	settings := config.Default()
	if err := settings.ResolveCredentials(); err != nil {
		return nil, fmt.Errorf("the default sandbox credentials: %w", err)
	}
	p := &Proxy{opts: opts, apis: apis, creds: map[string]func(*http.Request){}}
	for slug := range apis {
		if a := settings.APIs[slug]; a != nil {
			p.creds[slug] = a.Credential.Apply()
		}
	}
	return p, nil
}

// Reset puts the sandbox of slug back to its seeded state, or every sandbox when slug is "",
// as the server's per-session reset does (state.Registry.Reset): the stored changes are
// forgotten and the live state rebuilt from the seed on the next request.
func (p *Proxy) Reset(slug string) error {
	if _, ok := p.apis[slug]; !ok && slug != "" {
		return fmt.Errorf("no built-in sandbox is called %q", slug)
	}
	return p.opts.Registry.Reset(context.Background(), slug)
}

// ServeHTTP implements http.Handler for /proxy/<slug>/<path>.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/proxy/")
	slug, _, _ := strings.Cut(rest, "/")
	h := p.apis[slug]
	if !ok || h == nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]string{
			"error": "no built-in sandbox answers " + r.URL.Path + ": the path must be /proxy/<api>/<path> with one of the catalog's APIs",
		})
		return
	}
	// The browser holds no credential; drop any it sent, as the server's proxy does.
	r.Header.Del("Authorization")
	r.Header.Del("Cookie")
	if apply := p.creds[slug]; apply != nil {
		apply(r)
	}
	http.StripPrefix("/proxy/"+slug, h).ServeHTTP(w, r)
}
