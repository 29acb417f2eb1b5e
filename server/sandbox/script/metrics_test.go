package script

import (
	"testing"
)

const metricsPath = "/v1/projects/" + SeedScriptID + "/metrics"

// TestMetrics checks granularities, the deployment filter and the errors.
func TestMetrics(t *testing.T) {
	h, _ := newTest(t)
	tests := []struct {
		query, want string
	}{
		{"?metricsGranularity=UNSPECIFIED_GRANULARITY", `{}`},
		{"?metricsGranularity=DAILY&metricsFilter.deploymentId=" + SeedAddOnDeploymentID, `{}`},
		{"?metricsGranularity=DAILY&metricsFilter.deploymentId=AKfycbNope", `{}`},
		{"?metricsGranularity=WEEKLY", `{"activeUsers":[` +
			`{"endTime":"2026-11-07T00:00:00Z","startTime":"2026-10-31T00:00:00Z","value":"3"},` +
			`{"endTime":"2026-11-21T00:00:00Z","startTime":"2026-11-14T00:00:00Z","value":"10"}],` +
			`"failedExecutions":[` +
			`{"endTime":"2026-11-07T00:00:00Z","startTime":"2026-10-31T00:00:00Z","value":"2"},` +
			`{"endTime":"2026-11-21T00:00:00Z","startTime":"2026-11-14T00:00:00Z","value":"1"}],` +
			`"totalExecutions":[` +
			`{"endTime":"2026-11-07T00:00:00Z","startTime":"2026-10-31T00:00:00Z","value":"21"},` +
			`{"endTime":"2026-11-21T00:00:00Z","startTime":"2026-11-14T00:00:00Z","value":"89"}]}`},
		{"?metricsGranularity=WEEKLY&metricsFilter.deploymentId=" + SeedAddOnDeploymentID, `{"activeUsers":[` +
			`{"endTime":"2026-11-07T00:00:00Z","startTime":"2026-10-31T00:00:00Z","value":"3"}],` +
			`"failedExecutions":[{"endTime":"2026-11-07T00:00:00Z","startTime":"2026-10-31T00:00:00Z","value":"2"}],` +
			`"totalExecutions":[{"endTime":"2026-11-07T00:00:00Z","startTime":"2026-10-31T00:00:00Z","value":"21"}]}`},
	}
	for _, tt := range tests {
		if got := js(mustCall(t, h, "GET", metricsPath+tt.query, "")); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.query, got, tt.want)
		}
	}
	errs := []struct {
		path      string
		wantCode  int
		wantField any
	}{
		{metricsPath, 400, "metricsGranularity"},
		{metricsPath + "?metricsGranularity=HOURLY", 400, "metricsGranularity"},
		{"/v1/projects/nope/metrics?metricsGranularity=DAILY", 404, nil},
	}
	for _, tt := range errs {
		code, v := call(t, h, "GET", tt.path, "")
		if code != tt.wantCode || get(v, "error", "details", 0, "fieldViolations", 0, "field") != tt.wantField {
			t.Errorf("%s: got %d %s; want %d field %v", tt.path, code, js(v), tt.wantCode, tt.wantField)
		}
	}
}

// TestMetricsCountRuns checks that runs of today are counted, failures apart.
func TestMetricsCountRuns(t *testing.T) {
	h, _ := newTest(t)
	run := "/v1/scripts/" + SeedDeploymentID + ":run"
	mustCall(t, h, "POST", run, `{"function":"sendInvoices"}`)
	mustCall(t, h, "POST", run, `{"function":"sendInvoices"}`)
	mustCall(t, h, "POST", run, `{"function":"nope"}`)
	m := mustCall(t, h, "GET", metricsPath+"?metricsGranularity=DAILY&metricsFilter.deploymentId="+SeedDeploymentID, "")
	today := func(k string) any { return get(m, k, 2) }
	want := `{"endTime":"2026-11-21T00:00:00Z","startTime":"2026-11-20T00:00:00Z","value":"%s"}`
	for k, v := range map[string]string{"activeUsers": "1", "totalExecutions": "3", "failedExecutions": "1"} {
		if got := js(today(k)); got != sprintf(want, v) {
			t.Errorf("%s today: got %s; want %s", k, got, sprintf(want, v))
		}
	}
}
