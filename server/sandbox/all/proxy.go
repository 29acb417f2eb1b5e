package all

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"loupe/server/config"
)

// Proxy serves /proxy/<slug>/<path> from the built-in sandboxes the way the Loupe server's proxy
// does when an API goes to its sandbox: it adds the API's sandbox credential, placed as the
// API's security scheme says, strips the prefix and hands the request to that API's sandbox.
// The static explorer's sandbox module (wasm/sandboxes) serves the browser's requests with it,
// so the app sends the same requests in both modes.
type Proxy struct {
	opts  Options
	creds map[string]func(*http.Request) // nil for an API that takes no credential

	mu   sync.Mutex
	apis map[string]http.Handler
}

// NewProxy builds every sandbox with its documented default credential.
func NewProxy(opts Options) (*Proxy, error) {
	opts.Key = nil // the default credential, which the default configuration sends
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

// Reset puts the sandbox of slug back to its seeded state, or every sandbox when slug is "".
func (p *Proxy) Reset(slug string) error {
	fresh, err := New(p.opts)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if slug == "" {
		p.apis = fresh
		return nil
	}
	h, ok := fresh[slug]
	if !ok {
		return fmt.Errorf("no built-in sandbox is called %q", slug)
	}
	p.apis[slug] = h
	return nil
}

// ServeHTTP implements http.Handler for /proxy/<slug>/<path>.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/proxy/")
	slug, _, _ := strings.Cut(rest, "/")
	p.mu.Lock()
	h := p.apis[slug]
	p.mu.Unlock()
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
