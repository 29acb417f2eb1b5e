package script

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"
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

// LogsHeader is the response header of scripts.run that carries the lines the run logged with
// console.log or Logger.log, as a JSON array of strings. The real API sends logs to Cloud
// Logging; the sandbox hands them back with the run.
const LogsHeader = "X-Loupe-Script-Logs"

// maxLogHeader bounds the logs header; longer logs are cut at a line and say so.
const maxLogHeader = 16 << 10

// runScript is scripts.run. The path's ID is a deployment ID (of an EXECUTION_API deployment)
// or a script ID (the project's most recently updated API deployment, or HEAD with devMode).
// devMode runs the HEAD files instead of the deployed version, and only for the owner (403).
// The function runs in the JavaScript engine (engine.go) without the store's lock, recorded as a
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
	select {
	case s.runs <- struct{}{}:
		defer func() { <-s.runs }()
	default:
		return nil, &apiError{Error: errorStatus{Code: http.StatusTooManyRequests, Status: "RESOURCE_EXHAUSTED",
			Message: fmt.Sprintf("Too many simultaneous invocations: the sandbox runs at most %d scripts at once. Try again when one has finished.", cap(s.runs))}}
	}
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
	proc := s.startProcess(p, d, req.Function, files)
	limits := s.limits
	s.mu.Unlock()

	began := time.Now()
	out := runOutput{fail: libFail}
	if libFail == nil {
		out = execute(runInput{files: files, libs: libs, function: req.Function, args: req.Parameters}, limits)
	}
	s.mu.Lock()
	e := s.endProcess(proc, time.Since(began), out.fail)
	s.mu.Unlock()
	if e != nil {
		return nil, e
	}
	return withHeader{body: runOperation(out), header: http.Header{LogsHeader: {logsHeader(out.logs)}}}, nil
}

// runOperation is the Operation body of a finished run.
func runOperation(out runOutput) operationJSON {
	if f := out.fail; f != nil {
		code := 3
		if f.timedOut {
			code = 10 // SCRIPT_TIMEOUT
		}
		ee := executionError{Type: "type.googleapis.com/google.apps.script.v1.ExecutionError",
			ErrorMessage: f.message, ErrorType: f.errType, ScriptStackTraceElements: f.stack}
		return operationJSON{Done: true, Error: &statusJSON{Code: code, Message: "ScriptError", Details: []executionError{ee}}}
	}
	return operationJSON{Done: true, Response: &executionResponse{
		Type: "type.googleapis.com/google.apps.script.v1.ExecutionResponse", Result: out.result}}
}

// logsHeader encodes the log lines for LogsHeader, cut to maxLogHeader bytes.
func logsHeader(lines []string) string {
	if lines == nil {
		lines = []string{}
	}
	for n := len(lines); n >= 0; n-- {
		kept := lines[:n]
		if n < len(lines) {
			kept = append(append([]string(nil), kept...), fmt.Sprintf("(%d more log lines were cut)", len(lines)-n))
		}
		b, _ := json.Marshal(kept)
		if len(b) <= maxLogHeader || n == 0 {
			return string(b)
		}
	}
	return "[]"
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
func (s *store) startProcess(p *project, d *deployment, fn string, files []file) *process {
	now := s.stamp()
	s.counter++
	runtime := "V8"
	if rv := parseManifest(manifest(files)).RuntimeVersion; rv == "STABLE" || rv == "DEPRECATED_ES5" {
		runtime = "DEPRECATED_ES5"
	}
	proc := &process{
		key:      fmt.Sprintf("0AOp_%s_%s_%d", fn, now.Format("20060102"), s.counter),
		scriptID: p.id, deploymentID: d.id, runBy: ada.Email, projectName: p.title, functionName: fn,
		processType: "EXECUTION_API", status: "RUNNING", access: p.accessLevel(), start: now, runtime: runtime,
	}
	s.processes = append(s.processes, proc)
	return proc
}

// endProcess records how the run ended and counts it in the metrics, stored first; when the
// store refuses, the run is forgotten and its error returned. The caller holds s.mu.
func (s *store) endProcess(proc *process, took time.Duration, fail *scriptFailure) *apiError {
	done := *proc
	done.duration, done.status = took.Round(time.Millisecond), "COMPLETED"
	switch {
	case fail != nil && fail.timedOut:
		done.status = "TIMED_OUT"
	case fail != nil:
		done.status = "FAILED"
	}
	b, i := s.counted(done.scriptID, done.deploymentID, done.runBy, fail != nil, done.start)
	if e := s.persist(processChange(s.runsDone, &done), bucketChange(b), s.counterChange()); e != nil {
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
