// Package inpage serves, in the browser, the requests the app sends to a Loupe server: the
// pieces the static explorer's sandbox modules (wasm/sandbox/<slug>, wasm/own,
// wasm/walkthroughs) are made of. It imports no sandbox: each module hands it the one sandbox
// it holds, so a module links only what its API needs.
package inpage

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"loupe/app/catalog"
	"loupe/server/config/placement"
	"loupe/server/sandbox"
	"loupe/server/sandbox/state"
)

// ProxyOptions configures NewProxy.
type ProxyOptions struct {
	// APIs are the built-in sandboxes the Proxy answers, by slug. Nil means none.
	APIs map[string]http.Handler
	// Own builds the sandbox of the API of your own slug, which the catalog lists (the static
	// site's /openapi/<slug>.yaml), on its first call. Nil means the Proxy answers no API of
	// your own.
	Own func(ctx context.Context, slug string) (http.Handler, error)
	// Registry holds the sandboxes' state; Reset resets it. Required: the same registry the
	// sandboxes of APIs and Own were built with.
	Registry *state.Registry
	// Catalog returns the compiled catalog (the static site's catalog.json), whose documents
	// say where each API's credential goes. It is called on the first request that needs it,
	// and again after it failed. Required.
	Catalog func(ctx context.Context) (*catalog.Catalog, error)
}

// Proxy serves /proxy/<slug>/<path> from the sandboxes it was given the way the Loupe server's
// proxy does when an API goes to its sandbox: it adds the API's sandbox credential (the one the
// default configuration sends), placed as the API's document says (placement.Of, as the server
// does), strips the prefix and hands
// the request to that API's sandbox. Its requests carry no sandbox session, so they all share
// one (state.Local): the tab's user.
type Proxy struct {
	opts ProxyOptions

	mu    sync.Mutex
	creds map[string]func(*http.Request) // by slug once placed; nil for an API that takes none
	own   map[string]http.Handler        // the sandboxes of the APIs of your own, built on first use
}

// NewRegistry is the registry of one tab's sandboxes: one session (the tab's), whose changes
// the store keeps until the page goes away; an idle eviction frees only the live state, rebuilt
// from the store on the next request.
func NewRegistry() *state.Registry {
	return state.NewRegistry(state.NewMemory(), state.Options{})
}

// NewProxy returns the proxy of opts' sandboxes, each with its documented default credential
// (the one the default configuration sends).
func NewProxy(opts ProxyOptions) (*Proxy, error) {
	if opts.Registry == nil || opts.Catalog == nil {
		return nil, fmt.Errorf("the in-browser proxy needs the sandboxes' registry and the catalog")
	}
	return &Proxy{opts: opts}, nil
}

// credential returns how the sandbox credential of slug is added to a request (nil: none),
// placing every API's the first time from the catalog.
func (p *Proxy) credential(ctx context.Context, slug string) (func(*http.Request), error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.creds != nil {
		return p.creds[slug], nil
	}
	cat, err := p.opts.Catalog(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the catalog: %w", err)
	}
	creds := map[string]func(*http.Request){}
	for _, api := range cat.APIs {
		if _, builtIn := p.opts.APIs[api.Slug]; !builtIn && !(api.Own && p.opts.Own != nil) {
			continue
		}
		send, name, prefix, err := placement.Of(&api)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", api.Slug, err)
		}
		creds[api.Slug] = placement.Apply(send, name, prefix, sandbox.DefaultKey)
	}
	p.creds = creds
	return creds[slug], nil
}

// OwnSandbox returns the sandbox of an API of your own the catalog lists, built on first use
// (nil when slug is no such API, or the Proxy answers none).
func (p *Proxy) OwnSandbox(ctx context.Context, slug string) (http.Handler, error) {
	if p.opts.Own == nil {
		return nil, nil
	}
	p.mu.Lock()
	h := p.own[slug]
	p.mu.Unlock()
	if h != nil {
		return h, nil
	}
	cat, err := p.opts.Catalog(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the catalog: %w", err)
	}
	if api := cat.API(slug); api == nil || !api.Own {
		return nil, nil
	}
	sb, err := p.opts.Own(ctx, slug)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.own == nil {
		p.own = map[string]http.Handler{}
	}
	if h := p.own[slug]; h != nil { // built meanwhile by another request
		return h, nil
	}
	p.own[slug] = sb
	return sb, nil
}

// Reset puts the sandbox of slug back to its seeded state, or every sandbox of the Proxy when
// slug is "", as the server's per-session reset does (state.Registry.Reset): the stored changes
// are forgotten and the live state rebuilt from the seed on the next request.
func (p *Proxy) Reset(slug string) error {
	p.mu.Lock()
	_, own := p.own[slug]
	p.mu.Unlock()
	if _, ok := p.opts.APIs[slug]; !ok && !own && slug != "" {
		return fmt.Errorf("no built-in sandbox is called %q", slug)
	}
	return p.opts.Registry.Reset(context.Background(), slug)
}

// ServeHTTP implements http.Handler for /proxy/<slug>/<path>.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/proxy/")
	slug, _, _ := strings.Cut(rest, "/")
	h := p.opts.APIs[slug]
	if h == nil && ok {
		var err error
		if h, err = p.OwnSandbox(r.Context(), slug); err != nil {
			writeError(w, http.StatusServiceUnavailable, "the in-browser sandbox of "+slug+" could not start: "+err.Error()+"; reload the page to try again")
			return
		}
	}
	if !ok || h == nil {
		writeError(w, http.StatusNotFound, "no built-in sandbox answers "+r.URL.Path+": the path must be /proxy/<api>/<path> with one of the catalog's APIs")
		return
	}
	// The browser holds no credential; drop any it sent, as the server's proxy does.
	r.Header.Del("Authorization")
	r.Header.Del("Cookie")
	apply, err := p.credential(r.Context(), slug)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, "the in-browser sandbox could not add the "+slug+" API's credential ("+err.Error()+"): reload the page to try again")
		return
	}
	if apply != nil {
		apply(r)
	}
	http.StripPrefix("/proxy/"+slug, h).ServeHTTP(w, r)
}

// writeError answers a JSON {"error": msg} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // the messages name <api> and <path> for a person to read
	_ = enc.Encode(map[string]string{"error": msg})
}
