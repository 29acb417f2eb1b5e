package script

import (
	"strconv"
	"strings"
	"time"
)

// This file says in words what the workspace shows of a run: how long it took, which limit
// stopped it and what to do about it, and where each stack frame is, as Apps Script's editor
// writes it. Pure functions, tested natively.

// The limits a run can meet: the sandbox's X-Loupe-Script-Limit values, and limitSlots for a
// run refused because the user's (or the server's) run slots were all taken.
const (
	limitTime   = "time"
	limitMemory = "memory"
	limitResult = "result"
	limitStack  = "stack"
	limitClient = "client"
	limitSlots  = "slots"
)

// limitNotice is what the workspace says of a limit that stopped a run.
type limitNotice struct {
	Title  string // "Stopped by the time limit."
	Why    string // what happened, in the user's terms
	Advice string // what to do
}

// limitNotices says each limit in words. The figures are the sandbox's defaults (the Script
// Projects guide lists them); a server may set others.
var limitNotices = map[string]limitNotice{
	limitTime: {"Stopped by the time limit.",
		"The run went on longer than the sandbox lets a run take (30 s by default), so the sandbox stopped it where the stack shows.",
		"Look for a loop that never ends, a regular expression that backtracks or work that grows with its input. Do less in one run: handle a batch, keep where you got to (PropertiesService), and run again."},
	limitMemory: {"Stopped by the memory limit.",
		"The run needed more memory than the sandbox gives a run (256 MiB by default), so the sandbox stopped it.",
		"Look for an array, string or object that keeps growing (a string doubled in a loop, new Array(1e8)). Work through the data in smaller pieces and keep only what you need."},
	limitResult: {"Stopped by the output limit.",
		"What the function returned, or the page it built, is larger than the sandbox sends back (10 MiB by default).",
		"Return less: a summary or one page of the data. Keep the rest in a spreadsheet (SpreadsheetApp) or properties and read it in another run."},
	limitStack: {"Stopped by the call depth limit.",
		"Functions called each other about 12,000 deep, as deep as V8 allows, so the run threw a RangeError.",
		"Look for a function that calls itself with no case that ends it, or write the recursion as a loop."},
	limitClient: {"Stopped: the caller left.",
		"The request that started the run went away before the run ended (the page was closed or the request was cancelled), so the sandbox stopped it.",
		"Run it again and wait for the answer."},
	limitSlots: {"Not run: too many runs at once.",
		"The sandbox runs only a few scripts at the same time, and only some of one user's, so this run was refused before it started.",
		"Wait until one of your other runs (in another tab or client) has finished, then run again."},
}

// noticeOf is the notice of limit, or one that names an unknown limit as the sandbox sent it.
func noticeOf(limit string) limitNotice {
	if n, ok := limitNotices[limit]; ok {
		return n
	}
	return limitNotice{Title: "Stopped by a limit of the sandbox (" + limit + ").",
		Why: "The sandbox stopped the run at one of its limits.", Advice: "The Script Projects guide lists the limits of a run; do less in one run."}
}

// runLimit is the limit that stopped or refused a run: the sandbox's header when it sent one;
// else read from the answer as the real API gives it (an ExecutionError of code 10 or the
// messages Apps Script writes, "Too many simultaneous invocations" for a refusal); "" when no
// limit did.
func runLimit(header string, status int, errMessage string, op *wsOperation) string {
	if header != "" {
		return header
	}
	if status == 429 && strings.HasPrefix(errMessage, "Too many simultaneous invocations") {
		return limitSlots
	}
	if op == nil || op.Error == nil {
		return ""
	}
	msg := ""
	if len(op.Error.Details) > 0 {
		msg = op.Error.Details[0].ErrorMessage
	}
	switch {
	case op.Error.Code == 10 || strings.HasPrefix(msg, "Exceeded maximum execution time"):
		return limitTime
	case strings.HasPrefix(msg, "Exceeded memory limit"):
		return limitMemory
	}
	return ""
}

// runDuration writes the sandbox's duration ("0.042s", "1.204s") for reading: "42 ms",
// "1.204 s"; "" when there is none, the text as it came when it is not a duration.
func runDuration(s string) string {
	if s == "" {
		return ""
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return s
	}
	if d < time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// logsCut reports whether the logs end with the sandbox's line saying that lines were cut.
func logsCut(logs []string) bool {
	if len(logs) == 0 {
		return false
	}
	last := logs[len(logs)-1]
	return strings.HasPrefix(last, "(") && strings.HasSuffix(last, " more log lines were cut)")
}

// frameText writes a stack frame as Apps Script's execution log does: "explode @ Code.gs:7";
// file is the project file that declares the function ("" when none does: a library's or the
// top level's), fn "" is code at the top level.
func frameText(fn, file string, line int) string {
	where := "line " + strconv.Itoa(line)
	if file != "" {
		where = file + ".gs:" + strconv.Itoa(line)
	}
	if fn == "" {
		return "(top level) @ " + where
	}
	return fn + " @ " + where
}
