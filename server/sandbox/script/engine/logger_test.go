package engine

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestLoggerAndConsole checks Logger and console against Apps Script's documentation: Logger.log
// with a format's %s (and Java's other conversions), objects as {key=value}, an object's
// message, chaining, getLog and clear; console's arguments and substitutions.
func TestLoggerAndConsole(t *testing.T) {
	src := `function f() {
  var same = Logger.log('You are a member of %s Google Groups.', 3) === Logger;
  Logger.log({key: 'value', list: [1, 'a']});
  Logger.log({message: 'my log message', data: {key: 'value'}});
  Logger.log('%d items at %.2f each, %s%%', 3.9, 1.5, 'ok');
  Logger.log(null);
  console.log('count %d of %s', 2, 'pens', {a: 1});
  console.info([1, 2], true);
  var log = Logger.getLog();
  Logger.clear();
  Logger.log('after');
  return [same, log.split('\n').length, Logger.getLog()];
}
`
	r := runJS(t, newMemHost(), "Europe/London", src, "f")
	wantLogs := []string{"You are a member of 3 Google Groups.", "{key=value, list=[1, a]}", "my log message",
		"3 items at 1.50 each, ok%", "null", `count 2 of pens {"a":1}`, "[1,2] true", "after"}
	if got := strings.Join(r.Logs, "\n"); got != strings.Join(wantLogs, "\n") {
		t.Errorf("logs:\n got %q\nwant %q", r.Logs, wantLogs)
	}
	stamped := regexp.MustCompile(`^\["?true"?,6,"\[\d\d-\d\d-\d\d \d\d:\d\d:\d\d:\d\d\d (GMT|BST)\] after\\n"\]$`)
	if got := outcome(r); !stamped.MatchString(got) {
		t.Errorf("getLog: got %s; want chaining, 5 lines and a newline, then only the stamped line after clear", got)
	}
}

// TestLogBounds checks that a run keeps its first lines within the line and byte bounds, cuts
// the line that passes the bytes and counts the rest.
func TestLogBounds(t *testing.T) {
	host := newMemHost()
	job := Job{Files: []File{{Name: "Code", Type: "SERVER_JS", Source: `function f() {
  for (var i = 0; i < 10; i++) console.log('line ' + i);
  Logger.log('x'.repeat(100));
}`}}, Function: "f", User: "a@b.c", ScriptID: "s", Limits: Limits{MaxLogLines: 5, MaxLogBytes: 1 << 20}}
	r := Run(job, host)
	if len(r.Logs) != 5 || r.LogsDropped != 6 || r.Logs[4] != "line 4" {
		t.Errorf("lines: got %q and %d dropped; want 5 lines and 6 dropped", r.Logs, r.LogsDropped)
	}
	job.Limits = Limits{MaxLogLines: 100, MaxLogBytes: 50}
	r = Run(job, host)
	if n := len(r.Logs); n != 9 || r.Logs[8] != "li… (cut: the sandbox keeps 50 bytes of logs a run)" || r.LogsDropped != 2 {
		t.Errorf("bytes: got %q and %d dropped; want 8 lines of 6 bytes, a ninth cut at 50, 2 dropped", r.Logs, r.LogsDropped)
	}
	if len(host.lines) != 14 {
		t.Errorf("the host saw %d lines as they were kept; want 14", len(host.lines))
	}
}

// TestRunStopsWithItsContext checks that an in-process run ends when its context does (the
// browser's sandbox module stops a run whose request the page aborted).
func TestRunStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	job := Job{Files: []File{{Name: "Code", Type: "SERVER_JS", Source: "function f() { while (true) {} }"}}, Function: "f",
		User: "a@b.c", ScriptID: "s", Limits: Limits{Timeout: 10 * time.Second}}
	start := time.Now()
	r := RunWith(ctx, job, newMemHost(), nil)
	if r.Fail == nil || r.Fail.Limit != LimitClient || time.Since(start) > 2*time.Second {
		t.Errorf("got %+v after %v; want the client limit soon after 100 ms", r.Fail, time.Since(start))
	}
}
