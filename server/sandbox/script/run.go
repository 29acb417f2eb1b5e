package script

import (
	"encoding/json"
	"fmt"
	"net/http"
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

// runDuration is how long every sandbox run is reported to take.
const runDuration = 100 * time.Millisecond

// runScript is scripts.run. The path's ID is a deployment ID (of an EXECUTION_API deployment)
// or a script ID (the project's most recently updated API deployment, or HEAD with devMode).
// devMode runs the HEAD files instead of the deployed version, and only for the owner (403). The function is interpreted by
// evaluate; a missing function or a throw answers 200 with the error in the body, like the real
// API. Every run is recorded as a process and counted in the metrics.
func runScript(s *store, r *http.Request, id string) (any, *apiError) {
	var req executionRequest
	if e := decodeBody(r, &req); e != nil {
		return nil, e
	}
	if req.Function == "" {
		return nil, invalidArgument("function", "The function to run is required.")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, d := s.runTarget(id, req.DevMode)
	if d == nil {
		return nil, errNotFound()
	}
	if req.DevMode && p.accessLevel() != "OWNER" {
		return nil, errPermission("The caller does not have permission: devMode runs are only for the script's owner.")
	}
	files := p.files
	if !d.head && !req.DevMode {
		files = p.version(d.version).files
	}
	result, fail, found := evaluate(files, req.Function, req.Parameters)
	if !found {
		fail = &scriptFailure{errType: "ScriptError", message: "Script function not found: " + req.Function}
	}
	s.record(p, d, req.Function, files, fail != nil)
	if fail != nil {
		ee := executionError{Type: "type.googleapis.com/google.apps.script.v1.ExecutionError",
			ErrorMessage: fail.message, ErrorType: fail.errType}
		if fail.function != "" {
			ee.ScriptStackTraceElements = []stackFrame{{Function: fail.function, LineNumber: fail.line}}
		}
		return operationJSON{Done: true, Error: &statusJSON{Code: 3, Message: "ScriptError", Details: []executionError{ee}}}, nil
	}
	resp := &executionResponse{Type: "type.googleapis.com/google.apps.script.v1.ExecutionResponse"}
	if result != undefined {
		b, err := json.Marshal(jsonValue(result))
		if err != nil {
			return nil, &apiError{Error: errorStatus{Code: 500, Message: fmt.Errorf("encoding the result: %w", err).Error(), Status: "INTERNAL"}}
		}
		resp.Result = b
	}
	return operationJSON{Done: true, Response: resp}, nil
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

// record adds the run's process and counts it in the metrics.
func (s *store) record(p *project, d *deployment, fn string, files []file, failed bool) {
	now := s.stamp()
	s.counter++
	status, runtime := "COMPLETED", "V8"
	if failed {
		status = "FAILED"
	}
	if rv := parseManifest(manifest(files)).RuntimeVersion; rv == "STABLE" || rv == "DEPRECATED_ES5" {
		runtime = "DEPRECATED_ES5"
	}
	s.processes = append(s.processes, &process{
		key:      fmt.Sprintf("0AOp_%s_%s_%d", fn, now.Format("20060102"), s.counter),
		scriptID: p.id, deploymentID: d.id, runBy: ada.Email, projectName: p.title, functionName: fn,
		processType: "EXECUTION_API", status: status, access: p.accessLevel(), start: now, duration: runDuration, runtime: runtime,
	})
	s.count(p.id, d.id, ada.Email, failed, now)
}

// jsonValue turns undefined into null inside arrays and drops it from objects, as JSON.stringify.
func jsonValue(v any) any {
	switch x := v.(type) {
	case undefinedValue:
		return nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if e != undefined {
				out[k] = jsonValue(e)
			}
		}
		return out
	}
	return v
}
