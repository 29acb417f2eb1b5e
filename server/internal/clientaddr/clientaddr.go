// Package clientaddr finds the address of a request's client: the address the connection came
// from, or, when that peer is one of the configured trusted proxies
// (server.access.trusted_proxies), the address the proxies wrote in X-Forwarded-For or
// Forwarded, read from the right past every trusted proxy (github.com/realclientip/realclientip-go's
// rightmost-trusted-range strategy). A header from anyone else is never read: a client cannot
// name itself someone else. Wrap puts the client's name (clientip.Key) in each request's context.
package clientaddr

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"

	"github.com/realclientip/realclientip-go"

	"loupe/server/internal/clientip"
)

// Headers the trusted proxies may write the client's address in.
const (
	XForwardedFor = "X-Forwarded-For"
	Forwarded     = "Forwarded"
)

// Resolver finds the client of a request. The zero value trusts no proxy.
type Resolver struct {
	trusted []netip.Prefix
	header  realclientip.Strategy // nil: no proxy is trusted
}

// New returns a Resolver that reads header (XForwardedFor, or Forwarded; "" means
// XForwardedFor) from the peers in trusted, and only from them. Name the header the proxies
// set themselves: one they pass through unchanged would carry whatever a client wrote.
func New(trusted []netip.Prefix, header string) (*Resolver, error) {
	if header == "" {
		header = XForwardedFor
	}
	r := &Resolver{trusted: slices.Clone(trusted)}
	if len(trusted) == 0 {
		return r, nil
	}
	nets := make([]net.IPNet, 0, len(trusted))
	for _, p := range trusted {
		p = p.Masked()
		bits := 128
		if p.Addr().Is4() {
			bits = 32
		}
		nets = append(nets, net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), bits)})
	}
	s, err := realclientip.NewRightmostTrustedRangeStrategy(header, nets)
	if err != nil {
		return nil, fmt.Errorf("the client address header: %w", err)
	}
	r.header = s
	return r, nil
}

// Addr returns the address of req's client; the zero Addr when even the peer's is unreadable.
func (r *Resolver) Addr(req *http.Request) netip.Addr {
	peer := parse(req.RemoteAddr)
	if r == nil || r.header == nil || !peer.IsValid() || !r.trusts(peer) {
		return peer
	}
	if a := parse(r.header.ClientIP(req.Header, req.RemoteAddr)); a.IsValid() {
		return a
	}
	return peer // the proxies wrote no address: the last proxy is the client
}

// trusts reports whether a is one of the trusted proxies.
func (r *Resolver) trusts(a netip.Addr) bool {
	return slices.ContainsFunc(r.trusted, func(p netip.Prefix) bool { return p.Contains(a) })
}

// parse reads "host:port", "host" or "[v6]:port", dropping a zone and unmapping ::ffff:v4.
func parse(s string) netip.Addr {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().WithZone("").Unmap()
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}
	}
	return a.WithZone("").Unmap()
}

// Wrap serves next with every request's client in its context (clientip.Of).
func (r *Resolver) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		next.ServeHTTP(w, req.WithContext(clientip.With(req.Context(), clientip.Key(r.Addr(req)))))
	})
}
