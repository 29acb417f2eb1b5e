package proxy

import (
	"net"
	"net/http"
	"strings"
)

// OwnHost is the host[:port] a request reached this server at, for links the server writes
// when no public URL is configured: the request's Host when it names the listener the
// connection came in on (its address, or localhost for a loopback listener, on the same port),
// else the listener's address. A client cannot make the server's links point elsewhere by
// sending another Host. A request built in-process (no listener) keeps its Host.
func OwnHost(r *http.Request) string {
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if local == nil {
		return r.Host
	}
	lhost, lport, err := net.SplitHostPort(local.String())
	if err != nil {
		return r.Host
	}
	lip := net.ParseIP(lhost)
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = r.Host, "80"
		if r.TLS != nil {
			port = "443"
		}
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if port == lport {
		ip := net.ParseIP(strings.Trim(host, "[]"))
		switch {
		case ip != nil && lip != nil && ip.Equal(lip):
			return r.Host
		case host == "localhost" && lip != nil && lip.IsLoopback():
			return r.Host
		}
	}
	return net.JoinHostPort(lhost, lport)
}
