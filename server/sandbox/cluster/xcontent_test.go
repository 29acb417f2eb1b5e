package cluster

import (
	"strings"
	"testing"
)

// TestFilterPath checks filter_path as OpenSearch's documentation describes it: names, *
// within a name, ** across levels, arrays looked through, - to exclude, nothing kept as {}.
func TestFilterPath(t *testing.T) {
	const doc = `{"took":3,"hits":{"total":{"value":2},"hits":[{"_id":"1","_source":{"a":1,"b":2}},{"_id":"2","_source":{"a":3}}]},"_shards":{"total":1,"failed":0}}`
	tests := []struct{ expr, want string }{
		{"took", `{"took":3}`},
		{"took,hits.total.value", `{"took":3,"hits":{"total":{"value":2}}}`},
		{"hits.hits._id", `{"hits":{"hits":[{"_id":"1"},{"_id":"2"}]}}`},
		{"hits.hits._source.b", `{"hits":{"hits":[{"_source":{"b":2}}]}}`},
		{"_sh*.fail*", `{"_shards":{"failed":0}}`},
		{"**.value", `{"hits":{"total":{"value":2}}}`},
		{"**._id", `{"hits":{"hits":[{"_id":"1"},{"_id":"2"}]}}`},
		{"-hits,-_shards", `{"took":3}`},
		{"-hits.hits,hits", `{"hits":{"total":{"value":2}}}`},
		{"nothing.here", `{}`},
		{"took.deeper", `{}`},
		{" took , ", `{"took":3}`},
	}
	for _, tt := range tests {
		n, err := parseNode([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		writePretty(&b, filterPath(n, tt.expr), -1)
		if got := b.String(); got != tt.want {
			t.Errorf("filter_path=%s: got %s; want %s", tt.expr, got, tt.want)
		}
	}
}

// TestAnswerFormats checks the parameters every answer honours, errors included: pretty in
// OpenSearch's spacing, format=yaml as Jackson writes it, filter_path on both, a binary format
// refused in the API's error shape.
func TestAnswerFormats(t *testing.T) {
	h := newTest(Options{})
	tests := []struct {
		target, wantType, want string
		status                 int
	}{
		{"/_cluster/health?filter_path=status,number_of_*nodes", "application/json; charset=UTF-8",
			`{"status":"green","number_of_nodes":3,"number_of_data_nodes":3}`, 200},
		{"/_cluster/health?filter_path=status&pretty", "application/json; charset=UTF-8",
			"{\n  \"status\" : \"green\"\n}\n", 200},
		{"/_cluster/health?filter_path=status,timed_out,active_shards_percent_as_number&format=yaml", "application/yaml",
			"---\nstatus: \"green\"\ntimed_out: false\nactive_shards_percent_as_number: 100.0\n", 200},
		{"/_cluster/health?level=shard&filter_path=error.root_cause.type,status&format=yaml", "application/yaml",
			"---\nerror:\n  root_cause:\n  - type: \"illegal_argument_exception\"\nstatus: 400\n", 400},
		{"/_cluster/health?level=shard&filter_path=error.root_cause&pretty", "application/json; charset=UTF-8",
			"{\n  \"error\" : {\n    \"root_cause\" : [\n      {\n        \"type\" : \"illegal_argument_exception\",\n        \"reason\" : \"No enum constant org.opensearch.action.admin.cluster.health.ClusterHealthRequest.Level.SHARD\"\n      }\n    ]\n  }\n}\n", 400},
		{"/_cluster/health?filter_path=nope&format=json", "application/json; charset=UTF-8", `{}`, 200},
		{"/_cluster/health?format=cbor&filter_path=error.reason", "application/json; charset=UTF-8",
			`{"error":{"reason":"format [cbor] is binary, and Loupe's cluster sandbox answers json and yaml only: ask for one of those"}}`, 406},
	}
	for _, tt := range tests {
		w := get(t, h, tt.target)
		if w.Code != tt.status || w.Header().Get("Content-Type") != tt.wantType || w.Body.String() != tt.want {
			t.Errorf("GET %s:\ngot  %d %s %q\nwant %d %s %q", tt.target, w.Code, w.Header().Get("Content-Type"), w.Body, tt.status, tt.wantType, tt.want)
		}
	}
}

// TestYAMLNesting checks YAML of nested and empty collections against Jackson's layout.
func TestYAMLNesting(t *testing.T) {
	n, err := parseNode([]byte(`{"a":{"b":[{"c":[1,2],"d":{}},[]],"e":[]},"f":"x: \"y\"","1k":null}`))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writeYAML(&b, n, 0, false)
	want := "a:\n  b:\n  - c:\n    - 1\n    - 2\n    d: {}\n  - []\n  e: []\nf: \"x: \\\"y\\\"\"\n\"1k\": null\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
