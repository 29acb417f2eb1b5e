package clientip

import (
	"net/netip"
	"testing"
)

func TestKeyGroupsIPv6By64(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"203.0.113.5", "203.0.113.5"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::9", "2001:db8:1:2::/64"},
	} {
		if got := Key(netip.MustParseAddr(tc.in)); got != tc.want {
			t.Errorf("Key(%s): got %s; want %s", tc.in, got, tc.want)
		}
	}
	if got := Key(netip.Addr{}); got != "unknown" {
		t.Errorf("Key(zero): got %s; want unknown", got)
	}
}
