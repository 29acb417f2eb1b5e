package proxy

import (
	"net/http"
	"strings"
	"testing"
)

// TestCarryStatus: an upstream 408 goes out as a 200 carrying 408 only to a caller that asks
// for it (Loupe's fetch layer: a browser would re-send a 408); everyone else gets the 408, the
// audit line always says 408, the asking header never goes upstream, and an upstream cannot
// set the carrying header itself.
func TestCarryStatus(t *testing.T) {
	h := newHarness(t, nil)
	upstream := http.StatusRequestTimeout
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set(UpstreamStatusHeader, "299") // an upstream's own: dropped
		w.WriteHeader(upstream)
		_, _ = w.Write([]byte(`{"status":"yellow","timed_out":true}`))
	})
	ask := http.Header{CarryStatusHeader: {"1"}}
	for _, tc := range []struct {
		name          string
		upstream      int
		header        http.Header
		status        int
		carried, body string
	}{
		{"a 408 to a caller that asks is carried", 408, ask, 200, "408", `{"status":"yellow","timed_out":true}`},
		{"a 408 to any other caller is a 408", 408, nil, 408, "", `{"status":"yellow","timed_out":true}`},
		{"another status is never carried", 404, ask, 404, "", `{"status":"yellow","timed_out":true}`},
		{"a 200 is a 200", 200, ask, 200, "", `{"status":"yellow","timed_out":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			upstream = tc.upstream
			resp, body := h.do(t, "GET", "/proxy/chat/v1/stream", nil, tc.header)
			if got := resp.StatusCode; got != tc.status {
				t.Errorf("status: got %d; want %d", got, tc.status)
			}
			if got := resp.Header.Get(UpstreamStatusHeader); got != tc.carried {
				t.Errorf("%s: got %q; want %q", UpstreamStatusHeader, got, tc.carried)
			}
			if body != tc.body {
				t.Errorf("body: got %q; want %q", body, tc.body)
			}
			if tc.carried != "" && resp.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("Cache-Control: got %q; want no-store", resp.Header.Get("Cache-Control"))
			}
			if got := h.backend.seen().Header.Get(CarryStatusHeader); got != "" {
				t.Errorf("upstream saw %s: %q; want it dropped", CarryStatusHeader, got)
			}
		})
	}
	upstream = 408
	h.do(t, "GET", "/proxy/chat/v1/stream", nil, ask)
	lines := strings.Split(strings.TrimSpace(h.auditLog()), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "status=408") {
		t.Errorf("audit line of a carried 408: got %q; want status=408", last)
	}
}
