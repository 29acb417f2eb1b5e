package cluster

import (
	"net/http"
	"testing"
)

// errorBody is the cluster's error envelope for one cause.
func errorBody(typ, reason string) string {
	return `{"error":{"root_cause":[{"type":"` + typ + `","reason":"` + reason + `"}],"type":"` + typ + `","reason":"` + reason + `"},"status":400}`
}

// TestHealthParamErrors checks the exact 400 bodies of bad parameters.
func TestHealthParamErrors(t *testing.T) {
	const iae = "illegal_argument_exception"
	tests := []struct {
		query, typ, reason string
	}{
		{"wait_for_status=purple", iae, "No enum constant org.opensearch.cluster.health.ClusterHealthStatus.PURPLE"},
		{"wait_for_status=", iae, "No enum constant org.opensearch.cluster.health.ClusterHealthStatus."},
		{"level=everything", iae, "No enum constant org.opensearch.action.admin.cluster.health.ClusterHealthRequest.Level.EVERYTHING"},
		{"wait_for_events=soon", iae, "No enum constant org.opensearch.common.Priority.SOON"},
		{"expand_wildcards=open,visible", iae, "No valid expand wildcard value [visible]"},
		{"local=yes", iae, "Failed to parse value [yes] as only [true] or [false] are allowed."},
		{"wait_for_no_relocating_shards=1", iae, "Failed to parse value [1] as only [true] or [false] are allowed."},
		{"wait_for_no_initializing_shards=no", iae, "Failed to parse value [no] as only [true] or [false] are allowed."},
		{"ignore_unavailable=maybe", iae, "Could not convert [ignore_unavailable] to boolean"},
		{"timeout=10", iae, "failed to parse setting [timeout] with value [10] as a time value: unit is missing or unrecognized"},
		{"timeout=abc", iae, "failed to parse setting [timeout] with value [abc] as a time value: unit is missing or unrecognized"},
		{"timeout=1.5s", iae, "failed to parse [1.5s], fractional time values are not supported"},
		{"timeout=xs", iae, "failed to parse [xs]"},
		{"timeout=-2s", iae, "failed to parse setting [timeout] with value [-2s] as a time value: negative durations are not supported"},
		{"cluster_manager_timeout=soon", iae, "failed to parse setting [cluster_manager_timeout] with value [soon] as a time value: unit is missing or unrecognized"},
		{"master_timeout=1m&cluster_manager_timeout=1m", "parse_exception", "Please only use one of the request parameters [master_timeout, cluster_manager_timeout]."},
		{"wait_for_relocating_shards=0", iae, "wait_for_relocating_shards has been removed, use wait_for_no_relocating_shards [true/false] instead"},
		{"wait_for_active_shards=some", iae, "cannot parse ActiveShardCount[some]"},
		{"wait_for_active_shards=-3", iae, "shardCount cannot be less than -1, found: -3"},
		{"wait_for_nodes=many", "number_format_exception", `For input string: \"many\"`},
		{"wait_for_nodes=ge(x)", "number_format_exception", `For input string: \"x\"`},
		{"wait_for_nodes=>=", "number_format_exception", `For input string: \"\"`},
		{"foo=1", iae, "request [/_cluster/health] contains unrecognized parameter: [foo]"},
		{"levl=indices", iae, "request [/_cluster/health] contains unrecognized parameter: [levl] -> did you mean [level]?"},
		{"timeot=1s&zzz=1", iae, "request [/_cluster/health] contains unrecognized parameters: [timeot] -> did you mean [timeout]?, [zzz]"},
		{"wait_for_state=green", iae, "request [/_cluster/health] contains unrecognized parameter: [wait_for_state] -> did you mean any of [wait_for_status, wait_for_events, wait_for_nodes]?"},
		// The first bad parameter in OpenSearch's reading order wins.
		{"foo=1&wait_for_status=purple", iae, "No enum constant org.opensearch.cluster.health.ClusterHealthStatus.PURPLE"},
		{"expand_wildcards=x&local=x", iae, "No valid expand wildcard value [x]"},
	}
	h := newTest(Options{})
	for _, tt := range tests {
		w := get(t, h, "/_cluster/health?"+tt.query)
		if w.Code != http.StatusBadRequest {
			t.Errorf("%s: status: got %d; want 400", tt.query, w.Code)
		}
		if got, want := w.Body.String(), errorBody(tt.typ, tt.reason); got != want {
			t.Errorf("%s: body:\n got %s\nwant %s", tt.query, got, want)
		}
	}
	w := get(t, h, "/_cluster/health/products?foo")
	if got, want := w.Body.String(), errorBody(iae, "request [/_cluster/health/products] contains unrecognized parameter: [foo]"); got != want {
		t.Errorf("per-index path: body: got %s; want %s", got, want)
	}
}

// TestHealthParamValues checks values every parameter accepts.
func TestHealthParamValues(t *testing.T) {
	h := newTest(Options{})
	for _, q := range []string{
		"local", "local=false", "local=true", "ensure_node_weighed_in=true",
		"timeout=30s", "timeout=500ms", "timeout=1m", "timeout=2h", "timeout=1d", "timeout=100micros",
		"timeout=5000nanos", "timeout=-1", "timeout=0", "timeout=-1s", "timeout=10S",
		"cluster_manager_timeout=-1", "master_timeout=0", "expand_wildcards=", "expand_wildcards=open,closed,hidden",
		"wait_for_active_shards=1", "wait_for_active_shards=-2", "wait_for_nodes=3",
		"wait_for_events=IMMEDIATE", "wait_for_events=urgent", "wait_for_events=high", "wait_for_events=normal", "wait_for_events=low",
		"pretty", "human=false", "error_trace=true", "filter_path=status", "allow_no_indices=false", "ignore_throttled=true",
		"awareness_attribute=zone",
	} {
		if w := get(t, h, "/_cluster/health?"+q); w.Code != http.StatusOK {
			t.Errorf("%s: status: got %d; want 200 (%s)", q, w.Code, w.Body)
		}
	}
}

// TestParamTime checks time values against OpenSearch's parser.
func TestParamTime(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"30s", "30s"}, {"500ms", "500ms"}, {"1m", "1m0s"}, {"-1", "-1ns"}, {"-01", "-1ns"},
		{"0", "0s"}, {"000", "0s"}, {"2h", "2h0m0s"}, {"1d", "24h0m0s"}, {" 7s ", "7s"},
	}
	for _, tt := range tests {
		got, err := paramTime(map[string][]string{"timeout": {tt.in}}, "timeout", 0)
		if err != nil || got.String() != tt.want {
			t.Errorf("%q: got %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}
