package fetch

import (
	"strconv"
	"strings"
)

// A browser re-sends, silently and more than once, a request answered 408 on a reused
// keep-alive connection, so an API's own 408 (a wait that timed out) would never reach the
// page. Loupe's proxy therefore carries an upstream 408 as a 200 with the status in a header
// when the request asks for it (server/proxy, carry.go), and Do restores it: callers see the
// API's status and headers as the API sent them.
const (
	// carryStatusHeader asks the proxy to carry a status a browser would re-send.
	carryStatusHeader = "X-Loupe-Carry-Status"
	// upstreamStatusHeader is the carried status on the proxy's answer.
	upstreamStatusHeader = "X-Loupe-Upstream-Status"
)

// toProxy reports whether url, a URL Plan sends over the network, calls Loupe's proxy under
// the site's base: only those ask for a carried status (another host knows nothing of it).
func toProxy(url, base string) bool {
	path, ok := strings.CutPrefix(url, base)
	return ok && strings.HasPrefix(path, "/proxy/")
}

// restoreCarried gives r the status the proxy carried in a header, and drops that header.
func (r *Response) restoreCarried() {
	for i, h := range r.Headers {
		if !equalFold(h.Name, upstreamStatusHeader) {
			continue
		}
		if code, err := strconv.Atoi(h.Value); err == nil && code >= 100 && code <= 599 {
			r.Status, r.StatusText = code, statusText[code]
		}
		r.Headers = append(r.Headers[:i:i], r.Headers[i+1:]...)
		return
	}
}

// statusText holds the reason phrases of the statuses the proxy carries.
var statusText = map[int]string{408: "Request Timeout"}
