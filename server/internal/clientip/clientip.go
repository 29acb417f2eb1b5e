// Package clientip names the client of a request for the tables bounded per client (sandbox
// sessions, login attempts, rate limits) and carries that name in a request's context. The
// server puts it there (server/internal/clientaddr, which finds the client's address); the
// tables read it. It imports nothing outside the standard library, so the static explorer's
// modules, whose sandboxes read it, link no more than this.
//
// IPv6 clients are grouped by their /64, which one subscriber usually holds whole.
package clientip

import (
	"context"
	"net/netip"
)

// Key is the client's name in the tables: the IPv4 address, or the IPv6 address's /64;
// "unknown" for the zero Addr.
func Key(a netip.Addr) string {
	switch {
	case !a.IsValid():
		return "unknown"
	case a.Is4():
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

// keyOf is the context key of a request's client.
type keyOf struct{}

// With returns ctx naming its request's client by key (Key).
func With(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, keyOf{}, key)
}

// Of returns the client key ctx carries, or "" when none was set.
func Of(ctx context.Context) string {
	k, _ := ctx.Value(keyOf{}).(string)
	return k
}
