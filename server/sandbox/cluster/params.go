package cluster

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// healthParams are the query parameters cluster health reads, in the order
// OpenSearch's RestClusterHealthAction consumes them.
var healthParams = []string{
	"expand_wildcards", "ignore_unavailable", "allow_no_indices", "ignore_throttled",
	"local", "ensure_node_weighed_in", "cluster_manager_timeout", "master_timeout", "timeout",
	"awareness_attribute", "level", "wait_for_status", "wait_for_no_relocating_shards",
	"wait_for_no_initializing_shards", "wait_for_active_shards", "wait_for_nodes", "wait_for_events",
}

// Status values, ordered as OpenSearch's ClusterHealthStatus: a lower value
// is healthier.
const (
	green = iota
	yellow
	red
)

// statusNames are the JSON names of the statuses.
var statusNames = [...]string{green: "green", yellow: "yellow", red: "red"}

// Wait-for-active-shards modes.
const (
	activeNone = -1 // do not wait (0, or not given)
	activeAll  = -2 // wait for every copy
)

// DefaultTimeout is how long a health call waits for its wait_for_*
// conditions when timeout is not given, as in OpenSearch.
const DefaultTimeout = 30 * time.Second

// healthRequest is a parsed cluster health request.
type healthRequest struct {
	indices            []string // nil: the whole cluster
	states             wildcardStates
	level              string // cluster, indices, shards or awareness_attributes
	awarenessAttr      string
	human              bool
	timeout            time.Duration // < 0: no limit
	waitStatus         int           // -1: none
	waitNoRelocating   bool
	waitNoInitializing bool
	waitActive         int    // activeNone, activeAll or a count
	waitNodes          string // "" none
	waitEvents         int    // a task priority; -1 none
	deprecatedMaster   bool   // master_timeout was given
}

// parseHealth reads the {index} segment and the query as OpenSearch does,
// failing with the error the first bad parameter causes.
func parseHealth(path string, q url.Values) (*healthRequest, *osError) {
	req := &healthRequest{states: allStates, level: "cluster", timeout: DefaultTimeout, waitStatus: -1, waitActive: activeNone, waitEvents: -1}
	if seg, ok := strings.CutPrefix(path, HealthPath+"/"); ok {
		req.indices = splitIndices(seg)
	}
	var err *osError
	if v, ok := q["expand_wildcards"]; ok {
		if req.states, err = parseExpandWildcards(v[0]); err != nil {
			return nil, err
		}
	}
	for _, name := range []string{"ignore_unavailable", "allow_no_indices", "ignore_throttled"} {
		if v, ok := q[name]; ok && v[0] != "" && v[0] != "true" && v[0] != "false" {
			return nil, illegalArgument("Could not convert [%s] to boolean", name)
		}
	}
	for _, name := range []string{"local", "ensure_node_weighed_in"} {
		if _, err = paramBool(q, name); err != nil {
			return nil, err
		}
	}
	if _, err = paramTime(q, "cluster_manager_timeout", 30*time.Second); err != nil {
		return nil, err
	}
	if _, ok := q["master_timeout"]; ok {
		if _, ok := q["cluster_manager_timeout"]; ok {
			return nil, newError(http.StatusBadRequest, "parse_exception",
				"Please only use one of the request parameters [master_timeout, cluster_manager_timeout].")
		}
		if _, err = paramTime(q, "master_timeout", 30*time.Second); err != nil {
			return nil, err
		}
		req.deprecatedMaster = true
	}
	if req.timeout, err = paramTime(q, "timeout", req.timeout); err != nil {
		return nil, err
	}
	req.awarenessAttr = q.Get("awareness_attribute")
	if v, ok := q["level"]; ok {
		switch l := strings.ToLower(v[0]); l {
		case "cluster", "indices", "shards", "awareness_attributes":
			req.level = l
		default:
			return nil, illegalArgument("No enum constant org.opensearch.action.admin.cluster.health.ClusterHealthRequest.Level.%s", strings.ToUpper(v[0]))
		}
	}
	if v, ok := q["wait_for_status"]; ok {
		u := strings.ToUpper(v[0])
		switch u {
		case "GREEN", "YELLOW", "RED":
			req.waitStatus = map[string]int{"GREEN": green, "YELLOW": yellow, "RED": red}[u]
		default:
			return nil, illegalArgument("No enum constant org.opensearch.cluster.health.ClusterHealthStatus.%s", u)
		}
	}
	if req.waitNoRelocating, err = paramBool(q, "wait_for_no_relocating_shards"); err != nil {
		return nil, err
	}
	if req.waitNoInitializing, err = paramBool(q, "wait_for_no_initializing_shards"); err != nil {
		return nil, err
	}
	if _, ok := q["wait_for_relocating_shards"]; ok {
		return nil, illegalArgument("wait_for_relocating_shards has been removed, use wait_for_no_relocating_shards [true/false] instead")
	}
	if v, ok := q["wait_for_active_shards"]; ok {
		if req.waitActive, err = parseActiveShards(v[0]); err != nil {
			return nil, err
		}
	}
	req.waitNodes = q.Get("wait_for_nodes")
	if v, ok := q["wait_for_events"]; ok {
		p, ok := parsePriority(v[0])
		if !ok {
			return nil, illegalArgument("No enum constant org.opensearch.common.Priority.%s", strings.ToUpper(v[0]))
		}
		req.waitEvents = p
	}
	if req.human, err = paramBool(q, "human"); err != nil {
		return nil, err
	}
	if err = checkParams(path, q, healthParams); err != nil {
		return nil, err
	}
	if req.waitNodes != "" {
		if _, _, err = parseWaitNodes(req.waitNodes); err != nil {
			return nil, err
		}
	}
	return req, nil
}

// paramBool reads a boolean parameter as RestRequest.paramAsBoolean: absent is
// false, present without a value is true, else only true or false.
func paramBool(q url.Values, name string) (bool, *osError) {
	v, ok := q[name]
	switch {
	case !ok:
		return false, nil
	case v[0] == "" || v[0] == "true":
		return true, nil
	case v[0] == "false":
		return false, nil
	}
	return false, illegalArgument("Failed to parse value [%s] as only [true] or [false] are allowed.", v[0])
}

// paramTime reads a time value (30s, 1m, 500ms, -1, 0 ...) as OpenSearch's
// TimeValue.parseTimeValue; -1 gives a negative duration (no limit). An
// absent parameter gives def.
func paramTime(q url.Values, name string, def time.Duration) (time.Duration, *osError) {
	v, ok := q[name]
	if !ok {
		return def, nil
	}
	return parseTimeValue(name, v[0])
}

// parseTimeValue reads the time value s of the setting name.
func parseTimeValue(name, s string) (time.Duration, *osError) {
	norm := strings.ToLower(strings.TrimSpace(s))
	units := []struct {
		suffix string
		unit   time.Duration
	}{{"nanos", time.Nanosecond}, {"micros", time.Microsecond}, {"ms", time.Millisecond},
		{"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}, {"d", 24 * time.Hour}}
	for _, u := range units {
		num, ok := strings.CutSuffix(norm, u.suffix)
		if !ok {
			continue
		}
		num = strings.TrimSpace(num)
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			if _, ferr := strconv.ParseFloat(num, 64); ferr == nil {
				return 0, illegalArgument("failed to parse [%s], fractional time values are not supported", s)
			}
			return 0, illegalArgument("failed to parse [%s]", s)
		}
		if n < -1 {
			return 0, illegalArgument("failed to parse setting [%s] with value [%s] as a time value: negative durations are not supported", name, s)
		}
		if n == -1 {
			return -1, nil
		}
		return time.Duration(min(n, int64(1<<62)/int64(u.unit))) * u.unit, nil
	}
	switch {
	case strings.HasPrefix(norm, "-") && strings.TrimLeft(norm[1:], "0") == "1":
		return -1, nil
	case norm != "" && strings.Trim(norm, "0") == "":
		return 0, nil
	}
	return 0, illegalArgument("failed to parse setting [%s] with value [%s] as a time value: unit is missing or unrecognized", name, s)
}

// parseActiveShards reads wait_for_active_shards as ActiveShardCount.parseString
// (for health, 0 and the default mean not waiting; -1 is all).
func parseActiveShards(s string) (int, *osError) {
	if s == "all" {
		return activeAll, nil
	}
	n, ok := javaInt(s)
	if !ok {
		return 0, illegalArgument("cannot parse ActiveShardCount[%s]", s)
	}
	switch {
	case n < -2:
		return 0, illegalArgument("shardCount cannot be less than -1, found: %d", n)
	case n == -1:
		return activeAll, nil
	case n <= 0:
		return activeNone, nil
	}
	return n, nil
}

// parseWaitNodes reads wait_for_nodes (N, >=N, <=N, >N, <N, ge(N), le(N),
// gt(N), lt(N)) into a comparison and a count, failing as Java's parseInt.
func parseWaitNodes(s string) (op string, n int, err *osError) {
	op, num := "==", s
	for _, p := range []struct{ prefix, op string }{
		{">=", ">="}, {"<=", "<="}, {">", ">"}, {"<", "<"},
		{"ge(", ">="}, {"le(", "<="}, {"gt(", ">"}, {"lt(", "<"},
	} {
		if rest, ok := strings.CutPrefix(s, p.prefix); ok {
			op, num = p.op, rest
			if strings.HasSuffix(p.prefix, "(") {
				num = s[len(p.prefix):max(len(s)-1, len(p.prefix))]
			}
			break
		}
	}
	v, ok := javaInt(num)
	if !ok {
		return "", 0, newError(http.StatusBadRequest, "number_format_exception", `For input string: "`+num+`"`)
	}
	return op, v, nil
}

// itoa is strconv.Itoa.
func itoa(n int) string { return strconv.Itoa(n) }

// javaInt parses s as Java's Integer.parseInt: an optional sign and decimal
// digits, within 32 bits.
func javaInt(s string) (int, bool) {
	if s == "" || s == "+" || s == "-" {
		return 0, false
	}
	for i, c := range s {
		if (c < '0' || c > '9') && !(i == 0 && (c == '+' || c == '-')) {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 32)
	return int(n), err == nil
}
