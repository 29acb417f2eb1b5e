package script

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/url"
	"time"

	"loupe/app/fetch"
	"loupe/app/op"
	"loupe/app/ui"
)

// This file holds how the script workspace calls the script API: every action is one
// documented operation sent through the proxy, recorded as the request it sent.

// The headers of a scripts.run answer from Loupe's script sandbox (server/sandbox/script,
// run.go): the run's log lines (a JSON array of strings, cut at 16 KiB with a last line
// saying how many more there were), how long it took (a protobuf Duration, "1.204s") and,
// when a limit stopped it, which one (time, memory, result, stack or client). A real API
// sends none of them.
const (
	scriptLogsHeader     = "X-Loupe-Script-Logs"
	scriptDurationHeader = "X-Loupe-Script-Duration"
	scriptLimitHeader    = "X-Loupe-Script-Limit"
)

// scriptCall is one operation the workspace sent and what came back.
type scriptCall struct {
	Operation string // the operationId, e.g. projects.updateContent
	Method    string
	URL       string
	Body      string // the JSON sent, "" when there is none
	Status    int    // 0 when the request failed before an answer
	Err       string // a transport error, or the API's error message
	Response  []byte
	Logs      []string // the run's log lines (scripts.run)
	Duration  string   // how long the run took, as the sandbox says it ("0.042s"); "" when not said
	Limit     string   // the limit that stopped the run (scripts.run), "" when none did
}

// ok reports whether the call got a 2xx answer.
func (c *scriptCall) ok() bool { return c.Status >= 200 && c.Status < 300 }

// callScript sends one operation to /proxy/script and reads the answer. It blocks: call it in
// ctx.Async. body is encoded as JSON (nil sends none).
func callScript(operation, method, path string, query url.Values, body any) *scriptCall {
	u := "/proxy/script" + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	c := &scriptCall{Operation: operation, Method: method, URL: u}
	req := fetch.Request{Method: method, URL: u}
	if body != nil {
		b, err := json.MarshalIndent(body, "", "  ")
		if err != nil {
			c.Err = "encoding the request: " + err.Error()
			return c
		}
		c.Body = string(b)
		req.Body = b
		req.Headers = []fetch.Header{{Name: "Content-Type", Value: "application/json"}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := fetch.Do(ctx, req)
	if err != nil {
		c.Err = err.Error()
		return c
	}
	defer res.Body.Close()
	c.Status = res.Status
	c.Response, err = io.ReadAll(io.LimitReader(res.Body, op.MaxBody))
	if err != nil {
		c.Err = "reading the answer: " + err.Error()
	}
	if logs := res.Header(scriptLogsHeader); logs != "" {
		_ = json.Unmarshal([]byte(logs), &c.Logs)
	}
	c.Duration, c.Limit = res.Header(scriptDurationHeader), res.Header(scriptLimitHeader)
	if !c.ok() && c.Err == "" {
		var e struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(c.Response, &e) == nil && e.Error.Message != "" {
			c.Err = e.Error.Message
		} else {
			c.Err = "HTTP " + ui.Itoa(c.Status)
		}
	}
	return c
}

// decode decodes the call's answer into v; it reports false when there is nothing to decode.
func (c *scriptCall) decode(v any) bool {
	return c.ok() && json.Unmarshal(c.Response, v) == nil
}

// pretty is the answer indented for reading.
func (c *scriptCall) pretty() string {
	var b bytes.Buffer
	if json.Indent(&b, c.Response, "", "  ") != nil {
		return string(c.Response)
	}
	return b.String()
}

// The parts of the script API's resources the workspace reads.
type (
	wsContent struct {
		ScriptID string   `json:"scriptId,omitempty"`
		Files    []wsFile `json:"files"`
	}
	wsFile struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		Source      string `json:"source"`
		FunctionSet *struct {
			Values []wsFunction `json:"values"`
		} `json:"functionSet,omitempty"`
	}
	wsFunction struct {
		Name       string   `json:"name"`
		Parameters []string `json:"parameters"`
	}
	wsOperation struct {
		Done     bool `json:"done"`
		Response *struct {
			Result json.RawMessage `json:"result"`
		} `json:"response"`
		Error *struct {
			Code    int `json:"code"`
			Details []struct {
				ErrorMessage string    `json:"errorMessage"`
				ErrorType    string    `json:"errorType"`
				Frames       []wsFrame `json:"scriptStackTraceElements"`
			} `json:"details"`
		} `json:"error"`
	}
	wsFrame struct {
		Function   string `json:"function"`
		LineNumber int    `json:"lineNumber"`
	}
	wsProcess struct {
		FunctionName  string `json:"functionName"`
		ProcessType   string `json:"processType"`
		ProcessStatus string `json:"processStatus"`
		StartTime     string `json:"startTime"`
		Duration      string `json:"duration"`
	}
)

// sendFile is a file as projects.updateContent takes it (without the read-only fields).
type sendFile struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Source string `json:"source"`
}
