package proxy

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// OwnHost is the host[:port] a request reached this server at, for links the server writes
// when no public URL is configured: the request's Host when it names the listener the
// connection came in on (its address, or localhost for a loopback listener, on the same port),
// else the listener's address. A client cannot make the server's links point elsewhere by
// sending another Host. A request built in-process (no listener) keeps its Host.
//
// It runs for every call to a sandbox: the usual answer, the Host itself on a TCP listener, is
// settled without an allocation (ownHostFast); anything else as it always was (ownHost).
func OwnHost(r *http.Request) string {
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if local == nil {
		return r.Host
	}
	if ok := ownHostFast(r, local); ok {
		return r.Host
	}
	return ownHost(r, local)
}

// ownHost is OwnHost's answer for a request that came in on local.
func ownHost(r *http.Request, local net.Addr) string {
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

// ownHostFast reports whether ownHost would answer r.Host, for the usual request: a TCP
// listener's address without a zone, and a Host in lower case without a trailing dot, naming
// that address or localhost and its port. It answers false for anything else, which ownHost
// then settles.
func ownHostFast(r *http.Request, local net.Addr) bool {
	tcp, ok := local.(*net.TCPAddr)
	if !ok || tcp.Zone != "" {
		return false
	}
	lip, ok := netip.AddrFromSlice(tcp.IP)
	if !ok || tcp.Port < 0 || tcp.Port > 65535 {
		return false
	}
	lip = lip.Unmap()
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = r.Host, "80"
		if r.TLS != nil {
			port = "443"
		}
	}
	var buf [8]byte
	if port != string(strconv.AppendInt(buf[:0], int64(tcp.Port), 10)) {
		return false
	}
	for i := 0; i < len(host); i++ {
		if c := host[i]; c >= 'A' && c <= 'Z' || c == '%' {
			return false // ownHost lowers it; a zone net.ParseIP does not read
		}
	}
	if strings.HasSuffix(host, ".") {
		return false
	}
	if host == "localhost" {
		return lip.IsLoopback()
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.Unmap() == lip
}
