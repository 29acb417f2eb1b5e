package cluster

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHealthBodyBytes checks the exact bytes of the default answer: field
// order and Java-style doubles (100.0).
func TestHealthBodyBytes(t *testing.T) {
	w := get(t, newTest(Options{}), "/_cluster/health")
	want := `{"cluster_name":"opensearch-cluster","status":"green","timed_out":false,"number_of_nodes":3,"number_of_data_nodes":3,"discovered_master":true,"discovered_cluster_manager":true,"active_primary_shards":12,"active_shards":24,"relocating_shards":0,"initializing_shards":0,"unassigned_shards":0,"delayed_unassigned_shards":0,"number_of_pending_tasks":0,"number_of_in_flight_fetch":0,"task_max_waiting_in_queue_millis":0,"active_shards_percent_as_number":100.0}`
	if got := w.Body.String(); got != want {
		t.Errorf("body: got %s; want %s", got, want)
	}
	if got, want := w.Header().Get("Content-Type"), "application/json; charset=UTF-8"; got != want {
		t.Errorf("Content-Type: got %q; want %q", got, want)
	}
}

// TestHealthNodes checks how the cluster size drives allocation and status.
func TestHealthNodes(t *testing.T) {
	tests := []struct {
		nodes                              int
		status                             string
		active, unassigned, primaries, pct int
	}{
		{0, "green", 24, 0, 12, 100},
		{1, "yellow", 12, 12, 12, 50},
		{2, "green", 24, 0, 12, 100},
		{5, "green", 24, 0, 12, 100},
	}
	for _, tt := range tests {
		b := health(t, newTest(Options{Nodes: tt.nodes}), "/_cluster/health", http.StatusOK)
		if b.Status != tt.status || b.ActiveShards != tt.active || b.UnassignedShards != tt.unassigned ||
			b.ActivePrimaryShards != tt.primaries || int(b.ActiveShardsPercentAsNumber) != tt.pct {
			t.Errorf("Nodes %d: got %s active %d unassigned %d primaries %d pct %v; want %s %d %d %d %d", tt.nodes,
				b.Status, b.ActiveShards, b.UnassignedShards, b.ActivePrimaryShards, b.ActiveShardsPercentAsNumber,
				tt.status, tt.active, tt.unassigned, tt.primaries, tt.pct)
		}
	}
}

// TestHealthRed checks a lost primary: the index and the cluster turn red and
// the percentage counts every copy of the cluster.
func TestHealthRed(t *testing.T) {
	h := newTest(Options{Indices: []Index{
		{Name: "ok", Shards: 1, Replicas: 1},
		{Name: "broken", Shards: 2, Replicas: 1, Unallocated: []int{1}},
	}})
	b := health(t, h, "/_cluster/health?level=shards", http.StatusOK)
	if got, want := b.Status, "red"; got != want {
		t.Errorf("status: got %s; want %s", got, want)
	}
	if got, want := float64(b.ActiveShardsPercentAsNumber), 66.66666666666666; got-want > 1e-9 || want-got > 1e-9 {
		t.Errorf("percent: got %v; want %v", got, want)
	}
	ix := b.Indices.(map[string]indexBody)["broken"]
	if got, want := ix.Status, "red"; got != want {
		t.Errorf("broken status: got %s; want %s", got, want)
	}
	if got, want := ix.ActivePrimaryShards, 1; got != want {
		t.Errorf("broken active primaries: got %d; want %d", got, want)
	}
	w := get(t, h, "/_cluster/health/broken?level=shards")
	if !strings.Contains(w.Body.String(), `"1":{"status":"red","primary_active":false,"active_shards":0,"relocating_shards":0,"initializing_shards":0,"unassigned_shards":2}`) {
		t.Errorf("shard 1: got %s; want a red shard 1", w.Body)
	}
	health(t, h, "/_cluster/health/ok?wait_for_status=green", http.StatusOK)
	health(t, h, "/_cluster/health?wait_for_status=yellow", http.StatusRequestTimeout)
	health(t, h, "/_cluster/health?wait_for_status=red", http.StatusOK)
}

// TestHealthLevel checks the detail each level adds.
func TestHealthLevel(t *testing.T) {
	h := newTest(Options{})
	tests := []struct {
		query                             string
		indices, shards, awareness, human bool
	}{
		{"", false, false, false, false},
		{"?level=cluster", false, false, false, false},
		{"?level=indices", true, false, false, false},
		{"?level=INDICES", true, false, false, false},
		{"?level=shards", true, true, false, false},
		{"?level=awareness_attributes", false, false, true, false},
		{"?human", false, false, false, true},
		{"?human=true&level=indices", true, false, false, true},
	}
	for _, tt := range tests {
		body := get(t, h, "/_cluster/health"+tt.query).Body.String()
		for _, c := range []struct {
			key  string
			want bool
		}{{`"indices":`, tt.indices}, {`"shards":{`, tt.shards}, {`"awareness_attributes":`, tt.awareness},
			{`"active_shards_percent":"100.0%"`, tt.human}, {`"task_max_waiting_in_queue":"0s"`, tt.human}} {
			if got := strings.Contains(body, c.key); got != c.want {
				t.Errorf("%s: has %s: got %v; want %v (%s)", tt.query, c.key, got, c.want, body)
			}
		}
	}
}

// TestHealthAwareness checks the awareness_attributes block.
func TestHealthAwareness(t *testing.T) {
	tests := []struct {
		opts  Options
		query string
		want  string
	}{
		{Options{}, "?level=awareness_attributes",
			`"awareness_attributes":{"zone":{"zone-1":{"active_shards":8,"initializing_shards":0,"relocating_shards":0,"unassigned_shards":-1,"data_nodes":1,"weight":1.0},"zone-2":{"active_shards":8,"initializing_shards":0,"relocating_shards":0,"unassigned_shards":-1,"data_nodes":1,"weight":1.0},"zone-3":{"active_shards":8,"initializing_shards":0,"relocating_shards":0,"unassigned_shards":-1,"data_nodes":1,"weight":1.0}}}`},
		{Options{Nodes: 1}, "?level=awareness_attributes&awareness_attribute=zone",
			`"awareness_attributes":{"zone":{"zone-1":{"active_shards":12,"initializing_shards":0,"relocating_shards":0,"unassigned_shards":-1,"data_nodes":1,"weight":1.0}}}`},
		{Options{}, "?level=awareness_attributes&awareness_attribute=rack", `"awareness_attributes":{}`},
	}
	for _, tt := range tests {
		if got := get(t, newTest(tt.opts), "/_cluster/health"+tt.query).Body.String(); !strings.Contains(got, tt.want) {
			t.Errorf("%s: got %s; want it to contain %s", tt.query, got, tt.want)
		}
	}
}

// TestHealthIndexExpressions checks index names, data streams, aliases,
// wildcards, exclusions and expand_wildcards.
func TestHealthIndexExpressions(t *testing.T) {
	h := newTest(Options{})
	all := []string{".ds-logs-app-000001", ".ds-logs-app-000002", ".opendistro_security", "customers", "logs-2026.09", "logs-2026.10", "logs-2026.11", "orders", "products"}
	tests := []struct {
		expr, query string
		want        []string
	}{
		{"products", "", []string{"products"}},
		{"products,orders", "", []string{"orders", "products"}},
		{"%20products%20,%20,orders", "", []string{"orders", "products"}},
		{"catalog", "", []string{"customers", "products"}},
		{"logs-app", "", []string{".ds-logs-app-000001", ".ds-logs-app-000002"}},
		{"logs-2026.09", "", []string{"logs-2026.09"}},
		{"*", "", all},
		{"_all", "", all},
		{"logs-*", "", []string{".ds-logs-app-000001", ".ds-logs-app-000002", "logs-2026.09", "logs-2026.10", "logs-2026.11"}},
		{"logs-*", "expand_wildcards=open", []string{".ds-logs-app-000001", ".ds-logs-app-000002", "logs-2026.10", "logs-2026.11"}},
		{"logs-*", "expand_wildcards=closed", []string{"logs-2026.09"}},
		{"logs-*,-logs-2026.1*", "", []string{".ds-logs-app-000001", ".ds-logs-app-000002", "logs-2026.09"}},
		// * also matches the data stream logs-app, which brings its hidden
		// backing indices, as in OpenSearch.
		{"*", "expand_wildcards=open", []string{".ds-logs-app-000001", ".ds-logs-app-000002", "customers", "logs-2026.10", "logs-2026.11", "orders", "products"}},
		{"*", "expand_wildcards=open,hidden", []string{".ds-logs-app-000001", ".ds-logs-app-000002", ".opendistro_security", "customers", "logs-2026.10", "logs-2026.11", "orders", "products"}},
		{"*", "expand_wildcards=hidden", nil},
		{"*", "expand_wildcards=all", all},
		{"*", "expand_wildcards=none", nil},
		{"*", "expand_wildcards=all,none", nil},
		{"*", "expand_wildcards=none,closed", []string{"logs-2026.09"}},
		{".ds-*", "expand_wildcards=open", []string{".ds-logs-app-000001", ".ds-logs-app-000002"}},
		{"cat*", "expand_wildcards=open", []string{"customers", "products"}},
		{"*-2026.1", "", nil},
		{"*-2026.1*", "", []string{"logs-2026.10", "logs-2026.11"}},
		{"p*s", "", []string{"products"}},
		{"nothing-*", "", nil},
	}
	for _, tt := range tests {
		b := health(t, h, "/_cluster/health/"+tt.expr+"?level=indices&"+tt.query, http.StatusOK)
		if got := indexNames(b); !slices.Equal(got, tt.want) {
			t.Errorf("%s?%s: got %v; want %v", tt.expr, tt.query, got, tt.want)
		}
	}
}

// TestHealthMissingIndex checks an unknown concrete name: red, nothing
// counted for it, 408 with timed_out (at once, MaxWait being 0).
func TestHealthMissingIndex(t *testing.T) {
	h := newTest(Options{})
	tests := []struct {
		target          string
		status          int
		active, indices int
	}{
		{"/_cluster/health/missing", http.StatusRequestTimeout, 0, 0},
		{"/_cluster/health/products,missing?level=indices", http.StatusRequestTimeout, 2, 1},
		{"/_cluster/health/missing?timeout=0", http.StatusRequestTimeout, 0, 0},
		{"/_cluster/health/missing*", http.StatusOK, 0, 0},
	}
	for _, tt := range tests {
		b := health(t, h, tt.target, tt.status)
		wantStatus := "red"
		if tt.status == http.StatusOK {
			wantStatus = "green"
		}
		if b.Status != wantStatus || b.TimedOut != (tt.status != http.StatusOK) || b.ActiveShards != tt.active || len(indexNames(b)) != tt.indices {
			t.Errorf("%s: got %s timed_out %v active %d indices %v; want %s %v %d %d", tt.target, b.Status, b.TimedOut,
				b.ActiveShards, indexNames(b), wantStatus, tt.status != http.StatusOK, tt.active, tt.indices)
		}
	}
}

// TestHealthWait checks every wait condition against a settled cluster: it
// holds at once, or the call answers 408 once its timeout has passed.
func TestHealthWait(t *testing.T) {
	three, one := newTest(Options{}), newTest(Options{Nodes: 1})
	tests := []struct {
		h      http.Handler
		query  string
		status int
	}{
		{three, "wait_for_status=green", http.StatusOK},
		{three, "wait_for_status=YELLOW", http.StatusOK},
		{one, "wait_for_status=green", http.StatusRequestTimeout},
		{one, "wait_for_status=yellow", http.StatusOK},
		{one, "wait_for_status=Red", http.StatusOK},
		{three, "wait_for_nodes=3", http.StatusOK},
		{three, "wait_for_nodes=2", http.StatusRequestTimeout},
		{three, "wait_for_nodes=>=2", http.StatusOK},
		{three, "wait_for_nodes=ge(3)", http.StatusOK},
		{three, "wait_for_nodes=gt(3)", http.StatusRequestTimeout},
		{three, "wait_for_nodes=<4", http.StatusOK},
		{three, "wait_for_nodes=lt(3)", http.StatusRequestTimeout},
		{three, "wait_for_nodes=<=3", http.StatusOK},
		{three, "wait_for_nodes=le(2)", http.StatusRequestTimeout},
		{three, "wait_for_nodes=>3", http.StatusRequestTimeout},
		{three, "wait_for_active_shards=all", http.StatusOK},
		{one, "wait_for_active_shards=all", http.StatusRequestTimeout},
		{one, "wait_for_active_shards=-1", http.StatusRequestTimeout},
		{one, "wait_for_active_shards=12", http.StatusOK},
		{one, "wait_for_active_shards=13", http.StatusRequestTimeout},
		{one, "wait_for_active_shards=0", http.StatusOK},
		{three, "wait_for_no_relocating_shards=true", http.StatusOK},
		{three, "wait_for_no_initializing_shards", http.StatusOK},
		{three, "wait_for_events=languid", http.StatusOK},
		{one, "wait_for_status=green&timeout=0", http.StatusRequestTimeout},
		{three, "wait_for_status=green&timeout=0", http.StatusOK},
		{three, "local=true&cluster_manager_timeout=1m", http.StatusOK},
	}
	for _, tt := range tests {
		w, took := doTimed(t, tt.h, http.MethodGet, "/_cluster/health?"+tt.query, apiKey, "")
		if w.Code != tt.status {
			t.Errorf("%s: status: got %d; want %d", tt.query, w.Code, tt.status)
		}
		if got, want := decode(t, w)["timed_out"], tt.status != http.StatusOK; got != want {
			t.Errorf("%s: timed_out: got %v; want %v", tt.query, got, want)
		}
		want := time.Duration(0)
		if tt.status != http.StatusOK && !strings.Contains(tt.query, "timeout=") {
			want = DefaultTimeout
		}
		if took != want {
			t.Errorf("%s: took %v of simulated time; want %v", tt.query, took, want)
		}
	}
}

// TestHealthMasterTimeout checks the deprecated parameter's warning.
func TestHealthMasterTimeout(t *testing.T) {
	w := get(t, newTest(Options{}), "/_cluster/health?master_timeout=10s")
	if w.Code != http.StatusOK {
		t.Fatalf("status: got %d; want 200", w.Code)
	}
	if got := w.Header().Get("Warning"); !strings.Contains(got, "Parameter [master_timeout] is deprecated") {
		t.Errorf("Warning: got %q; want the deprecation warning", got)
	}
}

// TestHealthPretty checks ?pretty: OpenSearch's own spacing ("key" : value), a newline at
// the end.
func TestHealthPretty(t *testing.T) {
	got := get(t, newTest(Options{}), "/_cluster/health?pretty").Body.String()
	if want := "{\n  \"cluster_name\" : \"opensearch-cluster\",\n  \"status\" : \"green\",\n"; !strings.HasPrefix(got, want) {
		t.Errorf("body: got %q; want it to start with %q", got, want)
	}
	if want := "  \"active_shards_percent_as_number\" : 100.0\n}\n"; !strings.HasSuffix(got, want) {
		t.Errorf("body: got %q; want it to end with %q", got, want)
	}
}
