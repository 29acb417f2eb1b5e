package all

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"loupe/app/catalog"
	"loupe/server/config"
	"loupe/server/sandbox/state"
)

// Proxy serves /proxy/<slug>/<path> from the built-in sandboxes the way the Loupe server's proxy
// does when an API goes to its sandbox: it adds the API's sandbox credential, placed as the
// API's document says (config.Placement, as the server does), strips the prefix and hands the
// request to that API's sandbox. The static explorer's sandbox module (wasm/sandboxes) serves
// the browser's requests with it, so the app sends the same requests in both modes. Its
// requests carry no sandbox session, so they all share one (state.Local): the tab's user.
type Proxy struct {
	opts     Options
	catalog  func(ctx context.Context) (*catalog.Catalog, error)
	settings *config.Config
	apis     map[string]http.Handler

	mu    sync.Mutex
	creds map[string]func(*http.Request) // by slug once placed; nil for an API that takes none
	own   map[string]http.Handler        // the sandboxes of the APIs of your own, built on first use
}

// NewProxy builds every sandbox with its documented default credential, placed as cat's
// documents say; cat is called on the first request that needs it (and again after it failed),
// so the static explorer loads its catalog.json only when a sandbox is first used. Without
// opts.Registry, their state is kept in memory (state.Memory) for as long as the Proxy lives:
// the state.Store interface and per-session registry the server uses, with its in-memory
// implementation, so the sandbox code has one shape in both hosts.
func NewProxy(opts Options, cat func(ctx context.Context) (*catalog.Catalog, error)) (*Proxy, error) {
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
	return &Proxy{opts: opts, catalog: cat, settings: settings, apis: apis}, nil
}

// credential returns how the sandbox credential of slug is added to a request (nil: none),
// placing every API's the first time from the catalog.
func (p *Proxy) credential(ctx context.Context, slug string) (func(*http.Request), error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.creds != nil {
		return p.creds[slug], nil
	}
	cat, err := p.catalog(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the catalog: %w", err)
	}
	creds := map[string]func(*http.Request){}
	for _, api := range cat.APIs { // an API of your own: the sandbox key, placed as its document says
		if !api.Own {
			continue
		}
		cred := config.Credential{}.WithSecret(config.SandboxKey)
		if cred.Send, cred.Name, cred.Prefix, err = config.Placement(&api); err != nil {
			return nil, fmt.Errorf("%s: %w", api.Slug, err)
		}
		creds[api.Slug] = cred.Apply()
	}
	for slug := range p.apis {
		api, a := cat.API(slug), p.settings.APIs[slug]
		if api == nil || a == nil {
			continue
		}
		cred := a.Credential
		if cred.Send == "" {
			if cred.Send, cred.Name, cred.Prefix, err = config.Placement(api); err != nil {
				return nil, fmt.Errorf("%s: %w", slug, err)
			}
		}
		creds[slug] = cred.Apply()
	}
	p.creds = creds
	return creds[slug], nil
}

// ownSandbox returns the sandbox of an API of your own the catalog lists, built from its
// document on first use (nil when slug is no such API).
func (p *Proxy) ownSandbox(ctx context.Context, slug string) (http.Handler, error) {
	if p.opts.OwnDocument == nil {
		return nil, nil
	}
	p.mu.Lock()
	h := p.own[slug]
	p.mu.Unlock()
	if h != nil {
		return h, nil
	}
	cat, err := p.catalog(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the catalog: %w", err)
	}
	if api := cat.API(slug); api == nil || !api.Own {
		return nil, nil
	}
	doc, err := p.opts.OwnDocument(ctx, slug)
	if err != nil {
		return nil, fmt.Errorf("reading its document: %w", err)
	}
	var hints any
	if p.opts.OwnHints != nil {
		if hints, err = p.opts.OwnHints(ctx, slug); err != nil {
			return nil, fmt.Errorf("reading its sandbox hints: %w", err)
		}
	}
	sb, err := Own(OwnOptions{Slug: slug, File: "/openapi/" + slug + ".yaml", Document: doc, Hints: hints, Registry: p.opts.Registry})
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

// Reset puts the sandbox of slug back to its seeded state, or every sandbox when slug is "",
// as the server's per-session reset does (state.Registry.Reset): the stored changes are
// forgotten and the live state rebuilt from the seed on the next request.
func (p *Proxy) Reset(slug string) error {
	p.mu.Lock()
	_, own := p.own[slug]
	p.mu.Unlock()
	if _, ok := p.apis[slug]; !ok && !own && slug != "" {
		return fmt.Errorf("no built-in sandbox is called %q", slug)
	}
	return p.opts.Registry.Reset(context.Background(), slug)
}

// ServeHTTP implements http.Handler for /proxy/<slug>/<path>.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/proxy/")
	slug, _, _ := strings.Cut(rest, "/")
	h := p.apis[slug]
	if h == nil && ok {
		var err error
		if h, err = p.ownSandbox(r.Context(), slug); err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_ = json.NewEncoder(w).Encode(map[string]string{
				"error": "the in-browser sandbox of " + slug + " could not start: " + err.Error() + "; reload the page to try again",
			})
			return
		}
	}
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
	apply, err := p.credential(r.Context(), slug)
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_ = json.NewEncoder(w).Encode(map[string]string{
			"error": "the in-browser sandbox could not add the " + slug + " API's credential (" + err.Error() + "): reload the page to try again",
		})
		return
	}
	if apply != nil {
		apply(r)
	}
	http.StripPrefix("/proxy/"+slug, h).ServeHTTP(w, r)
}
