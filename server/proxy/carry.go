package proxy

import (
	"net/http"
	"strconv"
)

// A browser re-sends a request answered 408 Request Timeout when it went out on a reused
// keep-alive connection: Chromium's HttpNetworkTransaction takes a 408 on a reused socket for
// a server that closed an idle connection, drops the socket and sends the request again,
// silently. An upstream whose 408 is its answer (cluster health's wait that timed out) is then
// called again and again, and the page waits for a response that never comes. Answering with
// Connection: close does not stop it (the request that got the 408 was already on a reused
// socket); answering with another status does.
//
// So a caller that asks for it with CarryStatusHeader (Loupe's own fetch layer, app/fetch,
// which restores the status) gets an upstream 408 as a 200 with the upstream's status in
// UpstreamStatusHeader and Cache-Control: no-store. Every other caller (curl, the official
// clients, fetch() calls of one's own) gets the 408 as it is, and the audit line always says
// 408.
const (
	// CarryStatusHeader, on a request, asks for an upstream 408 to be carried. It never goes
	// upstream.
	CarryStatusHeader = "X-Loupe-Carry-Status"
	// UpstreamStatusHeader, on a response, is the upstream's status when the status line
	// carries another one.
	UpstreamStatusHeader = "X-Loupe-Upstream-Status"
	// carriedAs is the status a carried 408 goes out with: no browser re-sends it, and no
	// intermediary takes it for an error page of its own.
	carriedAs = http.StatusOK
)

// carryStatus marks resp, an upstream answer, to go out as carriedAs when the caller asked for
// it and the status is one a browser would re-send.
// The upstream's own UpstreamStatusHeader, if any, is dropped: only the proxy sets it.
func carryStatus(c *call, resp *http.Response) {
	delete(resp.Header, UpstreamStatusHeader) // a canonical name
	if !c.carry || resp.StatusCode != http.StatusRequestTimeout {
		return
	}
	h := resp.Header
	h.Set(UpstreamStatusHeader, strconv.Itoa(resp.StatusCode))
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-store")
	}
	c.rec.carry = true
}

// wireStatus is the status that goes out for code: code itself, unless the answer is carried.
func (r *recorder) wireStatus(code int) int {
	if r.carry && code == http.StatusRequestTimeout {
		return carriedAs
	}
	return code
}
