package script

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestRunLimit checks which limit the workspace names: the sandbox's header first, else what
// the real API's answer says.
func TestRunLimit(t *testing.T) {
	execErr := func(code int, msg string) *wsOperation {
		var op wsOperation
		body := fmt.Sprintf(`{"done": true, "error": {"code": %d, "message": "ScriptError", "details": [{"errorMessage": %q}]}}`, code, msg)
		if err := json.Unmarshal([]byte(body), &op); err != nil {
			t.Fatal(err)
		}
		return &op
	}
	tests := []struct {
		name   string
		header string
		status int
		err    string
		op     *wsOperation
		want   string
	}{
		{"the sandbox's header", "memory", 200, "", execErr(3, "Exceeded memory limit"), limitMemory},
		{"the header wins over the body", "result", 200, "", execErr(10, "x"), limitResult},
		{"a real API's timeout: code 10", "", 200, "", execErr(10, "Exceeded maximum execution time"), limitTime},
		{"a real API's memory error", "", 200, "", execErr(3, "Exceeded memory limit"), limitMemory},
		{"the script's own error", "", 200, "", execErr(3, "foo is not defined"), ""},
		{"a result", "", 200, "", &wsOperation{Done: true}, ""},
		{"run slots taken", "", 429, "Too many simultaneous invocations: the sandbox runs at most 2 of one user's scripts at once.", nil, limitSlots},
		{"the proxy's rate limit is not a run slot", "", 429, "Rate limit exceeded", nil, ""},
		{"a transport failure", "", 0, "Failed to fetch", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := runLimit(tt.header, tt.status, tt.err, tt.op); got != tt.want {
				t.Errorf("runLimit: got %q; want %q", got, tt.want)
			}
		})
	}
}

// TestLimitNoticesSayWhatToDo checks that every limit is said in words with advice, and never
// with a Go type name or the raw header value alone.
func TestLimitNoticesSayWhatToDo(t *testing.T) {
	goName := regexp.MustCompile(`\*?[a-z]+\.[A-Z][A-Za-z]+|engine|Failure`)
	for _, limit := range []string{limitTime, limitMemory, limitResult, limitStack, limitClient, limitSlots, "cpu"} {
		n := noticeOf(limit)
		if n.Title == "" || n.Why == "" || n.Advice == "" {
			t.Errorf("noticeOf(%q): got %+v; want a title, why and advice", limit, n)
		}
		for _, s := range []string{n.Title, n.Why, n.Advice} {
			if m := goName.FindString(s); m != "" && !strings.Contains(s, "new Array") {
				t.Errorf("noticeOf(%q): got %q naming %q; want plain words", limit, s, m)
			}
		}
	}
	if got := noticeOf("cpu").Title; !strings.Contains(got, "(cpu)") {
		t.Errorf("an unknown limit: got %q; want it named", got)
	}
}

// TestRunDuration checks the sandbox's durations written for reading.
func TestRunDuration(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"0s", "0 ms"},
		{"0.042s", "42 ms"},
		{"0.999s", "999 ms"},
		{"1s", "1 s"},
		{"1.204s", "1.204 s"},
		{"30.001s", "30.001 s"},
		{"soon", "soon"},
	}
	for _, tt := range tests {
		if got := runDuration(tt.in); got != tt.want {
			t.Errorf("runDuration(%q): got %q; want %q", tt.in, got, tt.want)
		}
	}
}

// TestRunSummary checks the line that says how a run ended.
func TestRunSummary(t *testing.T) {
	tests := []struct {
		name      string
		c         scriptCall
		succeeded bool
		limit     string
		want      string
	}{
		{"completed", scriptCall{Status: 200, Duration: "0.042s"}, true, "", "Completed in 42 ms."},
		{"threw", scriptCall{Status: 200, Duration: "0.003s"}, false, "", "Failed after 3 ms."},
		{"stopped", scriptCall{Status: 200, Duration: "2.001s"}, false, limitTime, "Stopped after 2.001 s."},
		{"refused", scriptCall{Status: 429}, false, limitSlots, "Not run."},
		{"a real API: no duration", scriptCall{Status: 200}, true, "", "Completed."},
		{"no answer", scriptCall{Err: "Failed to fetch"}, false, "", "Not run."},
	}
	for _, tt := range tests {
		if got := runSummary(&tt.c, tt.succeeded, tt.limit); got != tt.want {
			t.Errorf("%s: got %q; want %q", tt.name, got, tt.want)
		}
	}
}

// TestFrameText checks stack frames written as Apps Script's execution log writes them.
func TestFrameText(t *testing.T) {
	tests := []struct {
		fn, file string
		line     int
		want     string
	}{
		{"explode", "Code", 7, "explode @ Code.gs:7"},
		{"", "Code", 2, "(top level) @ Code.gs:2"},
		{"helper", "", 4, "helper @ line 4"},
	}
	for _, tt := range tests {
		if got := frameText(tt.fn, tt.file, tt.line); got != tt.want {
			t.Errorf("frameText(%q, %q, %d): got %q; want %q", tt.fn, tt.file, tt.line, got, tt.want)
		}
	}
}

// TestLogsCut checks that the sandbox's last line about cut logs is recognised, and only it.
func TestLogsCut(t *testing.T) {
	tests := []struct {
		logs []string
		want bool
	}{
		{nil, false},
		{[]string{"a", "(12 more log lines were cut)"}, true},
		{[]string{"(12 more log lines were cut)", "b"}, false},
		{[]string{"(my own note)"}, false},
	}
	for _, tt := range tests {
		if got := logsCut(tt.logs); got != tt.want {
			t.Errorf("logsCut(%q): got %v; want %v", tt.logs, got, tt.want)
		}
	}
}
