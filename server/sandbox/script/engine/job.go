// Package engine runs one Apps Script function in goja, a JavaScript engine written in Go, the
// way Apps Script runs it in V8, with the services real scripts call (Logger, console,
// Utilities, Session, PropertiesService, CacheService, LockService, ContentService, HtmlService,
// SpreadsheetApp) over the user's sandbox state, which the Host keeps.
//
// Every SERVER_JS file of the project is loaded, in the project's file order, into one global
// scope; each library of the manifest is loaded first, in a scope of its own, under its
// userSymbol; then the named function is called with the parameters (decoded by JSON.parse, so
// they are plain JavaScript values) and its return value is serialised by JSON.stringify (a
// Date becomes its ISO 8601 string).
//
// Run holds a run to its limits cooperatively: goja is interrupted at the time limit and when
// the heap passes the memory limit, and regular expressions stop matching at the time limit.
// A native built-in that allocates or loops without returning to the interpreter cannot be
// interrupted, so the server runs each job in a worker process of its own with OS limits
// (package worker); the browser's sandbox module, which cannot start processes, runs it here.
package engine

import (
	"encoding/json"
	"time"
)

// File is one file of a project: SERVER_JS files are loaded, HTML files are what HtmlService's
// createHtmlOutputFromFile and createTemplateFromFile read, JSON is the manifest.
type File struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Source string `json:"source"`
}

// Library is a manifest library resolved to the files it runs, defined under Symbol.
type Library struct {
	Symbol string `json:"symbol"`
	Files  []File `json:"files"`
}

// Limits bound one run. Zero fields take the defaults of DefaultLimits.
type Limits struct {
	// Timeout is the wall-clock time the run may take; past it the run ends TIMED_OUT.
	Timeout time.Duration `json:"timeout"`
	// Memory is how many bytes the heap may grow while the run goes on (0: not watched).
	Memory uint64 `json:"memory"`
	// MaxStack is the call depth past which a call throws RangeError.
	MaxStack int `json:"maxStack"`
	// MaxLogLines and MaxLogBytes bound the log lines kept; the rest are counted.
	MaxLogLines int `json:"maxLogLines"`
	MaxLogBytes int `json:"maxLogBytes"`
	// MaxResult bounds the bytes of the serialised result or web app output.
	MaxResult int `json:"maxResult"`
}

// DefaultLimits are the limits of a run whose Limits leave a field zero: V8's call depth for
// a simple function (about 12,000 frames), 1,000 log lines or 1 MiB of logs, 10 MiB of result.
var DefaultLimits = Limits{Timeout: 30 * time.Second, MaxStack: 12000, MaxLogLines: 1000, MaxLogBytes: 1 << 20, MaxResult: 10 << 20}

// withDefaults fills the zero fields of l.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Timeout <= 0 {
		l.Timeout = d.Timeout
	}
	if l.MaxStack <= 0 {
		l.MaxStack = d.MaxStack
	}
	if l.MaxLogLines <= 0 {
		l.MaxLogLines = d.MaxLogLines
	}
	if l.MaxLogBytes <= 0 {
		l.MaxLogBytes = d.MaxLogBytes
	}
	if l.MaxResult <= 0 {
		l.MaxResult = d.MaxResult
	}
	return l
}

// Job is one run: what to execute, as whom, and within which limits.
type Job struct {
	Files    []File            `json:"files"`
	Libs     []Library         `json:"libs,omitempty"`
	Function string            `json:"function"`
	Args     []json.RawMessage `json:"args,omitempty"`
	// ScriptID and Title name the project; ParentID is the spreadsheet it is bound to ("" when
	// standalone): SpreadsheetApp.getActive and the document properties, cache and lock use it.
	ScriptID string `json:"scriptId"`
	Title    string `json:"title"`
	ParentID string `json:"parentId,omitempty"`
	// User is the email of the user the script runs as (Session.getActiveUser).
	User string `json:"user"`
	// TimeZone is the manifest's timeZone (IANA name); "" means America/New_York, Apps Script's
	// default for a manifest without one.
	TimeZone string `json:"timeZone,omitempty"`
	// WebApp marks a doGet or doPost call of a web app: its ContentService or HtmlService
	// output is the run's Output.
	WebApp bool   `json:"webApp,omitempty"`
	Limits Limits `json:"limits"`
}

// Frame is one ScriptStackTraceElement: a function of the project and a line of its file.
type Frame struct {
	Function   string `json:"function"`
	LineNumber int    `json:"lineNumber"`
}

// The limits a run can pass (Failure.Limit).
const (
	LimitTime   = "time"   // Exceeded maximum execution time
	LimitMemory = "memory" // Exceeded memory limit
	LimitResult = "result" // the result or output is larger than Limits.MaxResult
	LimitStack  = "stack"  // Maximum call stack size exceeded
	LimitClient = "client" // the caller went away: the run was stopped
)

// Failure is an exception of a run, as the ExecutionError shows it.
type Failure struct {
	Type    string  `json:"type,omitempty"` // empty when unknown (timeouts)
	Message string  `json:"message"`
	Stack   []Frame `json:"stack,omitempty"` // deepest call first
	// Limit names the limit that stopped the run (LimitTime…), "" for the script's own error.
	Limit string `json:"limit,omitempty"`
}

// Output is what a web app's doGet or doPost returned: a ContentService TextOutput (Kind
// "text") or an HtmlService HtmlOutput (Kind "html").
type Output struct {
	Kind     string `json:"kind"`
	MimeType string `json:"mimeType"`
	Content  string `json:"content"`
	Title    string `json:"title,omitempty"`
	FileName string `json:"fileName,omitempty"` // TextOutput.downloadAsFile
	// FaviconURL and Meta are HtmlOutput's setFaviconUrl and addMetaTag.
	FaviconURL string      `json:"faviconUrl,omitempty"`
	Meta       [][2]string `json:"meta,omitempty"`
}

// Change is one write to a document of the user's state (properties, cache, spreadsheets),
// applied in the order Clear, Put, Del, Set; see ApplyChange.
type Change struct {
	Key   string                     `json:"key"`
	Clear bool                       `json:"clear,omitempty"` // the document is deleted
	Put   json.RawMessage            `json:"put,omitempty"`   // the whole document
	Del   []string                   `json:"del,omitempty"`   // fields of an object document
	Set   map[string]json.RawMessage `json:"set,omitempty"`   // fields of an object document
}

// Result is the outcome of one run: a result (nil when the function returned undefined) or
// a failure, the web app output, the writes not yet committed, and the log lines.
type Result struct {
	Result      json.RawMessage `json:"result,omitempty"`
	Output      *Output         `json:"output,omitempty"`
	Fail        *Failure        `json:"fail,omitempty"`
	Changes     []Change        `json:"changes,omitempty"`
	Logs        []string        `json:"logs,omitempty"`
	LogsDropped int             `json:"logsDropped,omitempty"`
}

// Host is the server's side of a run: the user's state and the locks shared with the user's
// other runs. Its methods are called from the run's goroutine.
type Host interface {
	// Load returns the document with the key (nil when there is none).
	Load(key string) (json.RawMessage, error)
	// Commit stores changes durably (LockService.releaseLock, SpreadsheetApp.flush).
	Commit(changes []Change) error
	// Lock takes the lock of scope, waiting at most wait; it reports whether it got it.
	Lock(scope string, wait time.Duration) (bool, error)
	// Unlock releases the lock of scope.
	Unlock(scope string) error
	// Log receives each log line as it is kept, in order (for a host that streams them).
	Log(line string)
}
