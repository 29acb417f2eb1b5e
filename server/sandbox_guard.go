package server

import (
	"net/http"
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
		r = r.Clone(r.Context())
		r.Host = host // what a sandbox builds from the Host (the script sandbox's OAuth issuer) is trusted too
		for _, name := range []string{"X-Forwarded-Host", "X-Forwarded-Proto", "X-Forwarded-Prefix", "Forwarded", state.Header, state.ClientHeader} {
			r.Header.Del(name)
		}
		r.Header.Set("X-Forwarded-Proto", scheme)
		r.Header.Set("X-Forwarded-Host", host)
		next.ServeHTTP(w, r)
	})
}
