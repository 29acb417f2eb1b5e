package proxy

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"testing"
)

// TestOwnHost: the Host when it names the listener (its address or, on loopback, localhost,
// on its port), else the listener's address; ownHostFast, which settles the usual requests
// without an allocation, agrees with ownHost, the whole rule, on every pair of listener and
// Host below.
func TestOwnHost(t *testing.T) {
	tests := []struct {
		local net.Addr
		host  string
		tls   bool
		want  string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8093}, "127.0.0.1:8093", false, "127.0.0.1:8093"},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8093}, "localhost:8093", false, "localhost:8093"},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8093}, "LocalHost:8093", false, "LocalHost:8093"},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8093}, "evil.example:8093", false, "127.0.0.1:8093"},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8093}, "127.0.0.1:9999", false, "127.0.0.1:8093"},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8093}, "127.0.0.1:08093", false, "127.0.0.1:8093"},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 80}, "10.0.0.5", false, "10.0.0.5"},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 443}, "10.0.0.5", true, "10.0.0.5"},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 443}, "10.0.0.5", false, "10.0.0.5:443"},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 80}, "localhost", false, "10.0.0.5:80"},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 80}, "10.0.0.5.:80", false, "10.0.0.5.:80"},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 80}, "[::ffff:10.0.0.5]:80", false, "[::ffff:10.0.0.5]:80"},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 5), Port: 80}, "010.0.0.5:80", false, "10.0.0.5:80"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 8093}, "[::1]:8093", false, "[::1]:8093"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 8093}, "[::1]", false, "[::1]:8093"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 80}, "[::1]", false, "[::1]"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 8093}, "localhost:8093", false, "localhost:8093"},
		{&net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 80}, "[2001:DB8::1]:80", false, "[2001:DB8::1]:80"},
		{&net.TCPAddr{IP: net.ParseIP("fe80::1"), Port: 80, Zone: "eth0"}, "[fe80::1%eth0]:80", false, "[fe80::1%eth0]:80"},
		{&net.TCPAddr{IP: net.ParseIP("fe80::1"), Port: 80}, "[fe80::1%25eth0]:80", false, "[fe80::1]:80"},
		{&net.TCPAddr{Port: 80}, "localhost:80", false, ":80"},
		{&net.UnixAddr{Name: "/run/loupe.sock", Net: "unix"}, "localhost", false, "localhost"},
		{nil, "anything:1", false, "anything:1"},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest("GET", "/sandbox/docs/", nil)
		r.Host = tt.host
		if tt.tls {
			r.TLS = &tls.ConnectionState{}
		}
		if tt.local != nil {
			r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, tt.local))
		}
		if got := OwnHost(r); got != tt.want {
			t.Errorf("listener %v, Host %q (TLS %v): got %q; want %q", tt.local, tt.host, tt.tls, got, tt.want)
		}
		if tt.local != nil && ownHostFast(r, tt.local) && ownHost(r, tt.local) != r.Host {
			t.Errorf("listener %v, Host %q: ownHostFast says the Host; ownHost says %q", tt.local, tt.host, ownHost(r, tt.local))
		}
	}
}
