// Package proxy forwards /proxy/<slug>/<path> to that API's configured base URL, adding the
// credential the server holds and dropping any the browser sent.
package proxy

import (
	"encoding/json"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
)

// Upstream is one API's destination and credential.
type Upstream struct {
	// BaseURL is where requests go; the request path is appended to its path.
	BaseURL *url.URL
	// Apply adds the credential to an outgoing request. Nil sends none.
	Apply func(*http.Request)
}

// Proxy is the /proxy/ handler.
type Proxy struct {
	upstreams map[string]Upstream
	rp        *httputil.ReverseProxy
}

type slugKey struct{}

// New returns a proxy for the given upstreams, keyed by slug.
func New(upstreams map[string]Upstream, transport http.RoundTripper) *Proxy {
	p := &Proxy{upstreams: upstreams}
	p.rp = &httputil.ReverseProxy{
		Transport:     transport,
		FlushInterval: -1,
		Rewrite: func(pr *httputil.ProxyRequest) {
			slug := pr.In.Context().Value(slugKey{}).(string)
			u := p.upstreams[slug]
			rest := strings.TrimPrefix(pr.In.URL.Path, "/proxy/"+slug)
			pr.Out.URL.Scheme = u.BaseURL.Scheme
			pr.Out.URL.Host = u.BaseURL.Host
			pr.Out.URL.Path = strings.TrimRight(u.BaseURL.Path, "/") + rest
			pr.Out.URL.RawPath = ""
			pr.Out.Host = u.BaseURL.Host
			q := pr.Out.URL.Query()
			q.Del("key")
			q.Del("access_token")
			pr.Out.URL.RawQuery = q.Encode()
			pr.Out.Header.Del("Authorization")
			pr.Out.Header.Del("Cookie")
			if u.Apply != nil {
				u.Apply(pr.Out)
			}
		},
	}
	return p
}

// ServeHTTP implements http.Handler.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/proxy/")
	slug, _, _ := strings.Cut(rest, "/")
	if _, ok := p.upstreams[slug]; !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "unknown API " + slug})
		return
	}
	ctx := r.Context()
	r = r.WithContext(contextWith(ctx, slug))
	p.rp.ServeHTTP(w, r)
}
