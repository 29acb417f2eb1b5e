package proxy

import (
	"net/http"
)

// checkOrigin refuses calls a browser makes from another site, for every method: net/http's
// CrossOriginProtection checks only unsafe methods, so the check runs on a copy of the request
// marked POST. Calls without Sec-Fetch-Site and Origin, as official client libraries make them,
// pass.
func (p *Proxy) checkOrigin(r *http.Request) *refusal {
	probe := *r
	probe.Method = http.MethodPost
	if err := p.cop.Check(&probe); err != nil {
		return &refusal{http.StatusForbidden, "cross-origin calls to the proxy are refused",
			"call the proxy from the Loupe page itself or without a browser; behind a proxy, set server.public_url"}
	}
	return nil
}
