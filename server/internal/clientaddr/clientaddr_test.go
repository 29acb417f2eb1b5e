package clientaddr

import (
	"net/http/httptest"
	"net/netip"
	"testing"

	"loupe/server/internal/clientip"
)

func TestResolverReadsHeadersOnlyFromTrustedProxies(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	xff, err := New(trusted, "")
	if err != nil {
		t.Fatal(err)
	}
	fwd, err := New(trusted, Forwarded)
	if err != nil {
		t.Fatal(err)
	}
	none, _ := New(nil, "")
	for _, tc := range []struct {
		name   string
		r      *Resolver
		peer   string
		header map[string]string
		want   string
	}{
		{"a direct client is its peer", xff, "203.0.113.5:4000", nil, "203.0.113.5"},
		{"a direct client's header is ignored", xff, "203.0.113.5:4000", map[string]string{"X-Forwarded-For": "198.51.100.1"}, "203.0.113.5"},
		{"behind a trusted proxy: the address it appended", xff, "10.0.0.2:80", map[string]string{"X-Forwarded-For": "198.51.100.1"}, "198.51.100.1"},
		{"what the client wrote before it is ignored", xff, "10.0.0.2:80", map[string]string{"X-Forwarded-For": "1.1.1.1, 198.51.100.1"}, "198.51.100.1"},
		{"past several trusted proxies", xff, "10.0.0.2:80", map[string]string{"X-Forwarded-For": "1.1.1.1, 198.51.100.1, 10.9.9.9"}, "198.51.100.1"},
		{"a header the proxies do not set is ignored", xff, "10.0.0.2:80", map[string]string{"Forwarded": "for=1.1.1.1"}, "10.0.0.2"},
		{"Forwarded when configured", fwd, "10.0.0.2:80", map[string]string{"Forwarded": `for=1.1.1.1, for="[2001:db8::1]:4711"`}, "2001:db8::1"},
		{"X-Forwarded-For ignored when Forwarded is configured", fwd, "10.0.0.2:80", map[string]string{"X-Forwarded-For": "1.1.1.1"}, "10.0.0.2"},
		{"no proxy trusted", none, "10.0.0.2:80", map[string]string{"X-Forwarded-For": "198.51.100.1"}, "10.0.0.2"},
		{"a garbage header from the proxy leaves the proxy", xff, "10.0.0.2:80", map[string]string{"X-Forwarded-For": "nonsense"}, "10.0.0.2"},
		{"v4 in v6 is v4", xff, "[::ffff:203.0.113.9]:1", nil, "203.0.113.9"},
		{"an IPv6 peer behind an IPv6 proxy", xff, "[fd00::1]:80", map[string]string{"X-Forwarded-For": "2001:db8::7"}, "2001:db8::7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/", nil)
			req.RemoteAddr = tc.peer
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			if got := tc.r.Addr(req).String(); got != tc.want {
				t.Errorf("got %s; want %s", got, tc.want)
			}
		})
	}
}

func TestNewRefusesAnotherHeader(t *testing.T) {
	if _, err := New([]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, "X-Real-IP"); err == nil {
		t.Error("got no error for X-Real-IP; want one (list headers only)")
	}
}

// FuzzAddr: any header and peer give an address or the zero one without a panic, and a peer
// that is not a trusted proxy is always its own client.
func FuzzAddr(f *testing.F) {
	f.Add("10.0.0.2:80", "1.1.1.1, 198.51.100.1", `for="[2001:db8::1]:4711";proto=https`)
	f.Add("203.0.113.5:1", "", "")
	f.Add("[fe80::1%eth0]:1", "::1%lo, , ,", "for=unknown;for=_hidden")
	f.Add("@", "\x00", `for="`)
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	xff, _ := New(trusted, XForwardedFor)
	fwd, _ := New(trusted, Forwarded)
	f.Fuzz(func(t *testing.T, peer, xffValue, fwdValue string) {
		req := httptest.NewRequest("GET", "/", nil)
		req.RemoteAddr = peer
		req.Header.Set("X-Forwarded-For", xffValue)
		req.Header.Set("Forwarded", fwdValue)
		for _, r := range []*Resolver{xff, fwd} {
			got := r.Addr(req)
			p := parse(peer)
			if p.IsValid() && !r.trusts(p) && got != p {
				t.Fatalf("peer %q is not trusted: got %v; want the peer", peer, got)
			}
			_ = clientip.Key(got)
		}
	})
}
