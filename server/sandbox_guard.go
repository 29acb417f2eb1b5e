package server

import (
	"net/http"
	"net/textproto"
	"net/url"

	"loupe/server/proxy"
	"loupe/server/sandbox/state"
)

// sandboxGuard stands before the built-in sandboxes where browsers and clients call them
// directly (/sandbox/): a browser call from another site that could change state is refused
// (net/http's CrossOriginProtection: unsafe methods; clients without Origin or Sec-Fetch-Site
// pass), and the address the sandboxes write into their links (a paged list's next URL) is
// the configured public URL or the server's own (proxy.OwnHost), never a Host or
// X-Forwarded-* header the client made up: the request the sandboxes see carries that host as
// its Host too (the script sandbox's OAuth metadata names its issuer and endpoints from it). Calls through the proxy reach the sandboxes over
// the in-process transport instead, with X-Forwarded-* set by the proxy.
func sandboxGuard(next http.Handler, public *url.URL) http.Handler {
	cop := http.NewCrossOriginProtection()
	if public != nil {
		_ = cop.AddTrustedOrigin(public.Scheme + "://" + public.Host)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := cop.Check(r); err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"error":"cross-origin calls that change a sandbox are refused","check":"call the sandbox from Loupe's own page or without a browser; behind a proxy, set server.public_url","source":"loupe sandbox"}` + "\n"))
			return
		}
		scheme, host := "http", proxy.OwnHost(r)
		if r.TLS != nil {
			scheme = "https"
		}
		if public != nil {
			scheme, host = public.Scheme, public.Host
		}
		next.ServeHTTP(w, guarded(r, scheme, host))
	})
}

// guardedHeaders are the request headers a sandbox never sees from outside, canonical: the
// forwarding headers the guard writes itself, and the session headers only the in-process
// transport carries.
var guardedHeaders = func() map[string]bool {
	m := map[string]bool{}
	for _, name := range []string{"X-Forwarded-Host", "X-Forwarded-Proto", "X-Forwarded-Prefix", "Forwarded", state.Header, state.ClientHeader} {
		m[textproto.CanonicalMIMEHeaderKey(name)] = true
	}
	return m
}()

// guarded is r as the sandboxes get it: its Host the trusted one (what a sandbox builds from
// the Host, the script sandbox's OAuth issuer, is trusted too), the guarded headers dropped and
// the forwarding ones the guard's. It is a shallow copy with a header map of its own, as
// http.StripPrefix makes one, not r.Clone, which also copied the URL, every header value and
// the form: the sandboxes change neither (StripPrefix gives them a URL of their own).
func guarded(r *http.Request, scheme, host string) *http.Request {
	h := make(http.Header, len(r.Header)+2)
	for name, v := range r.Header {
		if !guardedHeaders[name] {
			h[name] = v
		}
	}
	h["X-Forwarded-Proto"] = []string{scheme}
	h["X-Forwarded-Host"] = []string{host}
	out := new(http.Request)
	*out = *r
	out.Host = host
	out.Header = h
	return out
}
