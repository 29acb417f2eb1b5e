package script

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// processKeys lists "function/status" of each process of a list body.
func processKeys(v any) string {
	var out []string
	ps, _ := get(v, "processes").([]any)
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%v/%v", get(p, "functionName"), get(p, "processStatus")))
	}
	return strings.Join(out, " ")
}

// TestProcessFilters checks each filter of both list operations.
func TestProcessFilters(t *testing.T) {
	h, _ := newTest(t)
	const user = "/v1/processes?"
	const script = "/v1/processes:listScriptProcesses?scriptId=" + SeedScriptID + "&"
	all := "sendInvoices/COMPLETED nightlyReport/FAILED sendInvoices/COMPLETED nightlyReport/COMPLETED onGmailMessage/COMPLETED"
	tests := []struct{ path, want string }{
		{user, all},
		{user + "userProcessFilter.scriptId=" + SeedScriptID, all},
		{user + "userProcessFilter.scriptId=1other", ""},
		{user + "userProcessFilter.projectName=" + url.QueryEscape("Invoice mailer"), all},
		{user + "userProcessFilter.projectName=Other", ""},
		{user + "userProcessFilter.functionName=nightlyReport", "nightlyReport/FAILED nightlyReport/COMPLETED"},
		{user + "userProcessFilter.deploymentId=" + SeedAddOnDeploymentID, "onGmailMessage/COMPLETED"},
		{user + "userProcessFilter.statuses=FAILED&userProcessFilter.statuses=TIMED_OUT", "nightlyReport/FAILED"},
		{user + "userProcessFilter.types=ADD_ON&userProcessFilter.types=TIME_DRIVEN", "nightlyReport/FAILED nightlyReport/COMPLETED onGmailMessage/COMPLETED"},
		{user + "userProcessFilter.userAccessLevels=READ", ""},
		{user + "userProcessFilter.startTime=2026-11-20T00:00:00Z", "sendInvoices/COMPLETED nightlyReport/FAILED"},
		{user + "userProcessFilter.endTime=2026-11-19T02:00:03.675Z", "nightlyReport/COMPLETED onGmailMessage/COMPLETED"},
		{user + "userProcessFilter.startTime=2026-11-19T00:00:00Z&userProcessFilter.endTime=2026-11-19T23:59:59Z", "sendInvoices/COMPLETED nightlyReport/COMPLETED"},
		{script, "sendInvoices/RUNNING " + all[:len("sendInvoices/COMPLETED")] + " doGet/COMPLETED" + all[len("sendInvoices/COMPLETED"):]},
		{script + "scriptProcessFilter.userAccessLevels=READ", "doGet/COMPLETED"},
		{script + "scriptProcessFilter.statuses=RUNNING", "sendInvoices/RUNNING"},
		{script + "scriptProcessFilter.endTime=2026-11-30T23:59:59Z&scriptProcessFilter.functionName=sendInvoices", "sendInvoices/COMPLETED sendInvoices/COMPLETED"},
		{script + "scriptProcessFilter.types=WEBAPP&scriptProcessFilter.deploymentId=" + SeedDeploymentID, "doGet/COMPLETED"},
	}
	for _, tt := range tests {
		if got := processKeys(mustCall(t, h, "GET", tt.path, "")); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.path, got, tt.want)
		}
	}
}

// TestProcessErrors checks bad filter values, a missing or unknown script and bad tokens.
func TestProcessErrors(t *testing.T) {
	h, _ := newTest(t)
	tests := []struct {
		path      string
		wantCode  int
		wantField any
	}{
		{"/v1/processes?userProcessFilter.statuses=DONE", 400, "userProcessFilter.statuses[0]"},
		{"/v1/processes?userProcessFilter.types=EXECUTION_API&userProcessFilter.types=API", 400, "userProcessFilter.types[1]"},
		{"/v1/processes?userProcessFilter.userAccessLevels=ADMIN", 400, "userProcessFilter.userAccessLevels[0]"},
		{"/v1/processes?userProcessFilter.startTime=yesterday", 400, "userProcessFilter.startTime"},
		{"/v1/processes?pageSize=abc", 400, "pageSize"},
		{"/v1/processes?pageToken=CgIIAg", 400, "pageToken"},
		{"/v1/processes?pageToken=" + processToken("0AOp_nope", 2), 400, "pageToken"},
		{"/v1/processes:listScriptProcesses", 400, "scriptId"},
		{"/v1/processes:listScriptProcesses?scriptId=nope", 404, nil},
		{"/v1/processes:listScriptProcesses?scriptId=" + SeedScriptID + "&scriptProcessFilter.endTime=x", 400, "scriptProcessFilter.endTime"},
	}
	for _, tt := range tests {
		code, v := call(t, h, "GET", tt.path, "")
		if code != tt.wantCode {
			t.Errorf("%s: got %d; want %d (%s)", tt.path, code, tt.wantCode, js(v))
		}
		if tt.wantField != nil {
			if got := get(v, "error", "details", 0, "fieldViolations", 0, "field"); got != tt.wantField {
				t.Errorf("%s: field got %v; want %v", tt.path, got, tt.wantField)
			}
		}
	}
}

// TestProcessPaging walks the script's processes at every page size, with a filter kept.
func TestProcessPaging(t *testing.T) {
	h, _ := newTest(t)
	base := "/v1/processes:listScriptProcesses?scriptId=" + SeedScriptID
	want := processKeys(mustCall(t, h, "GET", base, ""))
	for size := 1; size <= 7; size++ {
		var got []string
		token := ""
		for i := 0; i < 10; i++ {
			path := fmt.Sprintf("%s&pageSize=%d", base, size)
			if token != "" {
				path += "&pageToken=" + token
			}
			p := mustCall(t, h, "GET", path, "")
			if k := processKeys(p); k != "" {
				got = append(got, k)
			}
			if token, _ = p["nextPageToken"].(string); token == "" {
				break
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("pageSize %d: got %v; want %v", size, got, want)
		}
	}
	// A token survives a new process being added before it.
	first := mustCall(t, h, "GET", "/v1/processes?pageSize=2", "")
	mustCall(t, h, "POST", "/v1/scripts/"+SeedDeploymentID+":run", `{"function":"sendInvoices"}`)
	next := mustCall(t, h, "GET", "/v1/processes?pageSize=2&pageToken="+first["nextPageToken"].(string), "")
	if got, want := processKeys(next), "sendInvoices/COMPLETED nightlyReport/COMPLETED"; got != want {
		t.Errorf("after a run: got %s; want %s", got, want)
	}
}

// TestProcessToken checks that tokens round-trip and match the documented one.
func TestProcessToken(t *testing.T) {
	if got, want := processToken("0AOp_nightlyReport_20261120", 2), "CiAKGjBBT3BfbmlnaHRseVJlcG9ydF8yMDI2MTEyMBAC"; got != want {
		t.Errorf("got %s; want %s", got, want)
	}
	for _, n := range []int{0, 1, 127, 128, 100000} {
		key, m, ok := parseProcessToken(processToken("0AOp_x_20261120_7", n))
		if !ok || key != "0AOp_x_20261120_7" || m != n {
			t.Errorf("round trip %d: got %q %d %v", n, key, m, ok)
		}
	}
	if n, ok := parseVersionToken(versionToken(300)); !ok || n != 300 {
		t.Errorf("version round trip: got %d %v; want 300", n, ok)
	}
}

// TestFmtDuration: a process's duration is written as a google.protobuf.Duration in JSON.
func TestFmtDuration(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{time.Second, "1s"},
		{1500 * time.Millisecond, "1.5s"},
		{time.Microsecond, "0.000001s"},
		{time.Nanosecond, "0.000000001s"},
		{83*time.Second + 123456789, "83.123456789s"},
		{-250 * time.Millisecond, "-0.25s"},
		{-2 * time.Second, "-2s"},
	} {
		if got := fmtDuration(tt.d); got != tt.want {
			t.Errorf("fmtDuration(%v) = %q; want %q", tt.d, got, tt.want)
		}
	}
}

// TestFmtDurationAgreesWithSeconds: for durations a script run can take, fmtDuration writes
// what formatting the duration's seconds to nine decimals and trimming writes.
func TestFmtDurationAgreesWithSeconds(t *testing.T) {
	for d := time.Duration(0); d < 400*time.Second; d = d*3 + 7777 {
		want := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.9f", d.Seconds()), "0"), ".") + "s"
		if got := fmtDuration(d); got != want {
			t.Errorf("fmtDuration(%d ns) = %q; want %q", int64(d), got, want)
		}
	}
}
