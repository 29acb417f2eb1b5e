package script

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"loupe/server/sandbox/script/engine"
	"loupe/server/sandbox/state"
)

// executionRequest is the body of scripts.run.
type executionRequest struct {
	Function     string `json:"function"`
	Parameters   []any  `json:"parameters"`
	DevMode      bool   `json:"devMode"`
	SessionState string `json:"sessionState"`
}

// operationJSON is the Operation body of scripts.run.
type operationJSON struct {
	Done     bool               `json:"done"`
	Response *executionResponse `json:"response,omitempty"`
	Error    *statusJSON        `json:"error,omitempty"`
}

// executionResponse carries the function's return value (absent when it returned nothing).
type executionResponse struct {
	Type   string          `json:"@type"`
	Result json.RawMessage `json:"result,omitempty"`
}

// statusJSON is the Status of a run whose function threw.
type statusJSON struct {
	Code    int              `json:"code"`
	Message string           `json:"message"`
	Details []executionError `json:"details"`
}

// executionError is the ExecutionError detail of a failed run.
type executionError struct {
	Type                     string       `json:"@type"`
	ErrorMessage             string       `json:"errorMessage"`
	ErrorType                string       `json:"errorType,omitempty"`
	ScriptStackTraceElements []stackFrame `json:"scriptStackTraceElements,omitempty"`
}

// stackFrame is a ScriptStackTraceElement.
type stackFrame struct {
	Function   string `json:"function"`
	LineNumber int    `json:"lineNumber"`
}

// The headers of a scripts.run answer, beside the real API's Operation body: what the
// workspace shows of a run. The real API sends logs to Cloud Logging; the sandbox hands them
// back with the run.
const (
	// LogsHeader carries the lines the run logged with console or Logger, as a JSON array of
	// strings, cut at a line to maxLogHeader bytes (a last line says how many were cut).
	LogsHeader = "X-Loupe-Script-Logs"
	// DurationHeader carries how long the run took, as a google.protobuf.Duration ("1.204s").
	DurationHeader = "X-Loupe-Script-Duration"
	// LimitHeader names the limit that stopped the run, when one did: time, memory, result,
	// stack or client (its caller went away).
	LimitHeader = "X-Loupe-Script-Limit"
)

// maxLogHeader bounds the logs header; longer logs are cut at a line and say so.
const maxLogHeader = 16 << 10

// runScript is scripts.run. The path's ID is a deployment ID (of an EXECUTION_API deployment)
// or a script ID (the project's most recently updated API deployment, or HEAD with devMode).
// devMode runs the HEAD files instead of the deployed version, and only for the owner (403).
// The function runs in a worker process (runner.go) without the store's lock, recorded as a
// RUNNING process until it ends; a missing function or a throw answers 200 with the error in
// the body, like the real API. Every run is counted in the metrics.
func runScript(s *store, r *http.Request, id string) (any, *apiError) {
	var req executionRequest
	if e := decodeBody(r, &req); e != nil {
		return nil, e
	}
	if req.Function == "" {
		return nil, invalidArgument("function", "The function to run is required.")
	}
	release, e := s.slots.take(r.Context(), state.SessionOf(r.Context()))
	if e != nil {
		return nil, e
	}
	defer release()
	s.mu.Lock()
	p, d := s.runTarget(id, req.DevMode)
	if d == nil {
		s.mu.Unlock()
		return nil, errNotFound()
	}
	if req.DevMode && p.accessLevel() != "OWNER" {
		s.mu.Unlock()
		return nil, errPermission("The caller does not have permission: devMode runs are only for the script's owner.")
	}
	files := p.files
	if !d.head && !req.DevMode {
		files = p.version(d.version).files
	}
	libs, libFail := s.resolveLibraries(files)
	job := s.newJob(p, files, libs, req.Function, req.Parameters)
	proc := s.startProcess(p, d, req.Function, files, "EXECUTION_API")
	s.mu.Unlock()

	res, took, e := s.execute(r.Context(), job, libFail, proc)
	if e != nil {
		return nil, e
	}
	h := http.Header{LogsHeader: {logsHeader(res.Logs, res.LogsDropped)}, DurationHeader: {fmtDuration(took.Round(time.Millisecond))}}
	if res.Fail != nil && res.Fail.Limit != "" {
		h.Set(LimitHeader, res.Fail.Limit)
	}
	return withHeader{body: runOperation(res), header: h}, nil
}

// newJob is the job of a run of fn of project p with files. The caller holds s.mu.
func (s *store) newJob(p *project, files []file, libs []engine.Library, fn string, params []any) engine.Job {
	job := engine.Job{Files: engineFiles(files), Libs: libs, Function: fn, ScriptID: p.id, Title: p.title, ParentID: p.parentID,
		User: ada.Email, TimeZone: parseManifest(manifest(files)).TimeZone, Limits: s.limits}
	for _, v := range params {
		b, _ := json.Marshal(v) // decoded from JSON: it encodes
		job.Args = append(job.Args, b)
	}
	return job
}

// execute runs job (unless pre, a failure met before it could run) for the RUNNING process
// proc, then records how it ended with the writes it made to the user's state, in one
// change. Writes that would break the sandbox's bounds fail the run and none is kept.
func (s *store) execute(ctx context.Context, job engine.Job, pre *engine.Failure, proc *process) (engine.Result, time.Duration, *apiError) {
	began := time.Now()
	res := engine.Result{Fail: pre}
	if pre == nil {
		host := newRunHost(ctx, s)
		res = s.runner.run(ctx, job, host)
		host.done()
	}
	took := time.Since(began)
	s.mu.Lock()
	defer s.mu.Unlock()
	records, next, err := s.docChanges(res.Changes)
	if err != nil {
		res.Fail, records, next = &engine.Failure{Type: "Exception", Message: err.Error()}, nil, nil
	}
	if e := s.endProcess(proc, took, res.Fail, records...); e != nil {
		return res, took, e
	}
	s.installDocs(next)
	return res, took, nil
}

// runOperation is the Operation body of a finished run.
func runOperation(res engine.Result) operationJSON {
	if f := res.Fail; f != nil {
		code := 3
		switch f.Limit {
		case engine.LimitTime:
			code = 10 // SCRIPT_TIMEOUT
		case engine.LimitClient:
			code = 1 // CANCELLED
		}
		ee := executionError{Type: "type.googleapis.com/google.apps.script.v1.ExecutionError",
			ErrorMessage: f.Message, ErrorType: f.Type, ScriptStackTraceElements: frames(f.Stack)}
		return operationJSON{Done: true, Error: &statusJSON{Code: code, Message: "ScriptError", Details: []executionError{ee}}}
	}
	return operationJSON{Done: true, Response: &executionResponse{
		Type: "type.googleapis.com/google.apps.script.v1.ExecutionResponse", Result: res.Result}}
}

// frames are the engine's frames as ScriptStackTraceElements.
func frames(fs []engine.Frame) []stackFrame {
	out := make([]stackFrame, len(fs))
	for i, f := range fs {
		out[i] = stackFrame{Function: f.Function, LineNumber: f.LineNumber}
	}
	return out
}

// logsHeader encodes the log lines for LogsHeader in one pass: the lines that fit in
// maxLogHeader bytes, then one saying how many more there were (dropped already by the run).
func logsHeader(lines []string, dropped int) string {
	var b strings.Builder
	b.WriteByte('[')
	kept := 0
	for _, l := range lines {
		enc, _ := json.Marshal(l)
		if b.Len()+len(enc)+1 > maxLogHeader-64 {
			break
		}
		if kept > 0 {
			b.WriteByte(',')
		}
		b.Write(enc)
		kept++
	}
	if more := len(lines) - kept + dropped; more > 0 {
		if kept > 0 {
			b.WriteByte(',')
		}
		enc, _ := json.Marshal(fmt.Sprintf("(%d more log lines were cut)", more))
		b.Write(enc)
	}
	b.WriteByte(']')
	return b.String()
}

// runTarget resolves the path's ID to a project and an API-executable deployment (nil if none).
func (s *store) runTarget(id string, devMode bool) (*project, *deployment) {
	if p, d := s.findDeployment(id); d != nil {
		if !hasExecutionAPI(d.toJSON(p).EntryPoints) {
			return nil, nil
		}
		return p, d
	}
	p, ok := s.projects[id]
	if !ok {
		return nil, nil
	}
	var best *deployment
	for _, d := range p.deployments {
		if devMode && d.head {
			return p, d
		}
		if !d.head && hasExecutionAPI(d.entryPoints) && (best == nil || !d.update.Before(best.update)) {
			best = d
		}
	}
	return p, best
}

// startProcess records a RUNNING process of the run starting now. The caller holds s.mu.
func (s *store) startProcess(p *project, d *deployment, fn string, files []file, typ string) *process {
	now := s.stamp()
	s.counter++
	runtime := "V8"
	if rv := parseManifest(manifest(files)).RuntimeVersion; rv == "STABLE" || rv == "DEPRECATED_ES5" {
		runtime = "DEPRECATED_ES5"
	}
	proc := &process{
		key:      fmt.Sprintf("0AOp_%s_%s_%d", fn, now.Format("20060102"), s.counter),
		scriptID: p.id, deploymentID: d.id, runBy: ada.Email, projectName: p.title, functionName: fn,
		processType: typ, status: "RUNNING", access: p.accessLevel(), start: now, runtime: runtime,
	}
	s.processes = append(s.processes, proc)
	return proc
}

// endProcess records how the run ended and counts it in the metrics, stored first with more
// (the run's writes); when the store refuses, the run is forgotten and its error returned.
// The caller holds s.mu.
func (s *store) endProcess(proc *process, took time.Duration, fail *engine.Failure, more ...state.Change) *apiError {
	done := *proc
	done.duration, done.status = took.Round(time.Millisecond), "COMPLETED"
	switch {
	case fail != nil && fail.Limit == engine.LimitTime:
		done.status = "TIMED_OUT"
	case fail != nil && fail.Limit == engine.LimitClient:
		done.status = "CANCELED"
	case fail != nil:
		done.status = "FAILED"
	}
	b, i := s.counted(done.scriptID, done.deploymentID, done.runBy, fail != nil, done.start)
	if e := s.persist(append([]state.Change{processChange(s.runsDone, &done), bucketChange(b), s.counterChange()}, more...)...); e != nil {
		s.processes = slices.DeleteFunc(s.processes, func(p *process) bool { return p == proc })
		return e
	}
	s.runsDone++
	*proc = done
	if i < 0 {
		s.buckets = append(s.buckets, b)
	} else {
		s.buckets[i] = b
	}
	return nil
}
