package proxy

import (
	"net/http"
)

// checkOrigin refuses calls a browser makes from another site, for every method: net/http's
// CrossOriginProtection checks only unsafe methods, so the check runs on a copy of the request
// marked POST. Calls without Sec-Fetch-Site and Origin, as official client libraries make them,
// pass without the copy: Check lets every request without both headers through.
func (p *Proxy) checkOrigin(r *http.Request) *refusal {
	if _, ok := r.Header["Sec-Fetch-Site"]; !ok {
		if _, ok := r.Header["Origin"]; !ok {
			return nil
		}
	}
	probe := *r
	probe.Method = http.MethodPost
	if err := p.cop.Check(&probe); err != nil {
		return &refusal{http.StatusForbidden, "cross-origin calls to the proxy are refused",
			"call the proxy from the Loupe page itself or without a browser; behind a proxy, set server.public_url"}
	}
	return nil
}

// checkFetchMetadata refuses calls the browser makes for anything but a script's fetch: a page
// or frame opened on a proxy URL (a clicked link: its answer would be a page of Loupe's
// origin) and image, script, style or media loads (an <img> in an answer pointing at the
// proxy would call the API with the server's credential). Sec-Fetch-Dest must be empty and
// Sec-Fetch-Mode cors or same-origin (or websocket); calls without them (official client
// libraries, old browsers) pass.
func checkFetchMetadata(h http.Header) *refusal {
	dest, mode := first(h, "Sec-Fetch-Dest"), first(h, "Sec-Fetch-Mode")
	okDest := dest == "" || dest == "empty" || dest == "websocket"
	okMode := mode == "" || mode == "cors" || mode == "same-origin" || mode == "websocket"
	if okDest && okMode {
		return nil
	}
	what := "a page or frame"
	if mode != "navigate" && mode != "nested-navigate" {
		what = "a " + orWord(dest, "no-cors") + " load"
	}
	return &refusal{http.StatusForbidden, "the proxy answers only fetch() calls, not " + what,
		"call the proxy from Loupe's pages or a client library; an API's answer is never opened as a page or loaded as an image"}
}

func orWord(s, def string) string {
	if s == "" || s == "empty" {
		return def
	}
	return s
}
