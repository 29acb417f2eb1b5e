package cluster

import (
	"net/url"
	"slices"
	"testing"
)

// FuzzWaitForNodes checks that any wait_for_nodes value parses or fails
// with a number_format_exception, never crashes, and that a parsed one is a
// known comparison.
func FuzzWaitForNodes(f *testing.F) {
	for _, s := range []string{"3", ">=3", "<=3", ">3", "<3", "ge(3)", "le(3)", "gt(3)", "lt(3)", "ge(", "(", ">=", "", "-1", "+2", "ge(2147483648)", "lt()", "ge(3", "ﬀ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		op, _, err := parseWaitNodes(s)
		if err != nil {
			if err.Error.Type != "number_format_exception" || err.Status != 400 {
				t.Errorf("%q: error %+v; want a 400 number_format_exception", s, err)
			}
			return
		}
		if !slices.Contains([]string{"==", ">=", "<=", ">", "<"}, op) {
			t.Errorf("%q: op %q", s, op)
		}
	})
}

// FuzzWaitForActiveShards checks that any wait_for_active_shards value parses
// to all, none or a positive count, or fails with a 400.
func FuzzWaitForActiveShards(f *testing.F) {
	for _, s := range []string{"all", "0", "1", "-1", "-2", "-3", "24", "some", "", "+5", "2147483648", "ALL"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseActiveShards(s)
		if err != nil {
			if err.Status != 400 {
				t.Errorf("%q: status %d; want 400", s, err.Status)
			}
			return
		}
		if n != activeAll && n != activeNone && n <= 0 {
			t.Errorf("%q: got %d; want all, none or a positive count", s, n)
		}
	})
}

// FuzzTimeValue checks that any time value parses to -1 (no limit) or a
// non-negative duration, or fails with a 400 naming the setting.
func FuzzTimeValue(f *testing.F) {
	for _, s := range []string{"30s", "1m", "500ms", "-1", "0", "00", "-01", "1.5s", "10", "xs", "-2s", "9223372036854775807d", "1nanos", "2micros", " 3 h ", "", "-", "s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseTimeValue("timeout", s)
		if err != nil {
			if err.Status != 400 || err.Error.Type != "illegal_argument_exception" {
				t.Errorf("%q: error %+v; want a 400 illegal_argument_exception", s, err)
			}
			return
		}
		if d < -1 {
			t.Errorf("%q: got %v; want -1 or more", s, d)
		}
	})
}

// FuzzHealthQuery checks that any query string of the health call parses or
// fails with an error body, never crashes.
func FuzzHealthQuery(f *testing.F) {
	for _, s := range []string{"wait_for_status=green&timeout=1s", "wait_for_nodes=ge(2)&level=shards", "wait_for_events=languid&wait_for_active_shards=all", "expand_wildcards=open,hidden", "timeout=-1&wait_for_no_relocating_shards", "foo=1&levl=x"} {
		f.Add("/_cluster/health", s)
		f.Add("/_cluster/health/products,logs-*", s)
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		req, apiErr := parseHealth(path, q)
		if (req == nil) == (apiErr == nil) {
			t.Errorf("%s?%s: got request %v and error %v; want exactly one", path, query, req, apiErr)
		}
	})
}
