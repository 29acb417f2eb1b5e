// Package record writes an Arazzo document from requests that were sent and their answers
// (the history's "Save as walkthrough", `loupe walk FILE` running it back): one step per
// request, in order, each calling its operation by operationPath (which every runner reads the
// same way), with the parameters and body as sent, a success criterion on the status seen, and
// every value that came from an earlier answer written as a runtime expression: an id returned
// by step s1 and sent by step s2 becomes $steps.s1.outputs.id, with that output defined on s1.
//
// The package is pure (no I/O, no syscall/js): the server and the WebAssembly app can both use
// it. It needs the answers' bodies, which the history does not keep today.
package record

import (
	"encoding/json"
	"fmt"
	"mime"
	"strings"
)

// Exchange is one request as sent and its answer.
type Exchange struct {
	// API is the API's slug: the source description's name.
	API string
	// OperationID is the catalog's operation; Method (upper case) and Path (the operation's
	// path template, such as /v1/projects/{scriptId}) say where it is in its document.
	OperationID string
	Method      string
	Path        string
	// Params are the parameters as sent: path, query, header and cookie values.
	Params []Param
	// ContentType and Body are the request body as sent; Body empty when none was.
	ContentType string
	Body        string
	// Status is the answer's status; ResponseContentType and ResponseBody its body.
	Status              int
	ResponseContentType string
	ResponseBody        string
}

// Param is a parameter as sent.
type Param struct {
	Name   string
	In     string
	Values []string
}

// Options names what Record writes.
type Options struct {
	// Title is the document's info.title; empty means "Recorded walkthrough".
	Title string
	// WorkflowID is the workflow's id; empty means "recorded".
	WorkflowID string
	// Sources gives each API's source description url, by slug (for example the URL of the
	// server's /openapi/<slug>.yaml, which other runners can fetch). A slug not in it gets
	// ../openapi/<slug>.yaml, Loupe's content layout; Loupe matches a source by its name too.
	Sources map[string]string
}

// Record writes the document of the exchanges. An exchange without an answer (status 0) is
// an error: a walkthrough replays what worked.
func Record(exs []Exchange, opts Options) (*Document, error) {
	if len(exs) == 0 {
		return nil, fmt.Errorf("no request to record: pick at least one")
	}
	doc := &Document{Arazzo: "1.0.1", Info: Info{Title: opts.Title, Version: "1.0.0",
		Summary: fmt.Sprintf("%d requests recorded in Loupe, replayed with the values each answer gave to the requests after it.", len(exs))}}
	if doc.Info.Title == "" {
		doc.Info.Title = "Recorded walkthrough"
	}
	wf := Workflow{WorkflowID: opts.WorkflowID}
	if wf.WorkflowID == "" {
		wf.WorkflowID = "recorded"
	}
	known := &seen{}
	for i, ex := range exs {
		if ex.Status == 0 {
			return nil, fmt.Errorf("request %d (%s %s) has no answer: record only requests that were answered", i+1, ex.Method, ex.Path)
		}
		if !hasSource(doc, ex.API) {
			url := opts.Sources[ex.API]
			if url == "" {
				url = "../openapi/" + ex.API + ".yaml"
			}
			doc.SourceDescriptions = append(doc.SourceDescriptions, Source{Name: ex.API, URL: url, Type: "openapi"})
		}
		st := &Step{StepID: fmt.Sprintf("s%d", i+1), Description: fmt.Sprintf("%s %s (%s), which answered %d.", ex.Method, ex.Path, ex.OperationID, ex.Status),
			OperationPath:   fmt.Sprintf("{$sourceDescriptions.%s.url}#/paths/%s/%s", ex.API, escape(ex.Path), strings.ToLower(ex.Method)),
			SuccessCriteria: []Criterion{{Condition: fmt.Sprintf("$statusCode == %d", ex.Status)}}}
		for _, p := range ex.Params {
			var v any = p.Values
			if len(p.Values) == 1 {
				v = p.Values[0]
			}
			st.Parameters = append(st.Parameters, Parameter{Name: p.Name, In: p.In, Value: known.carry(v, wf.Steps)})
		}
		if ex.Body != "" {
			st.RequestBody = &RequestBody{ContentType: ex.ContentType, Payload: ex.Body}
			if v, ok := jsonOf(ex.ContentType, ex.Body); ok {
				st.RequestBody.Payload = known.carry(v, wf.Steps)
			} else {
				st.RequestBody.Payload = known.carry(ex.Body, wf.Steps)
			}
		}
		wf.Steps = append(wf.Steps, st)
		if v, ok := jsonOf(ex.ResponseContentType, ex.ResponseBody); ok {
			known.add(len(wf.Steps)-1, v, "")
		}
	}
	doc.Workflows = []Workflow{wf}
	return doc, nil
}

func hasSource(doc *Document, name string) bool {
	for _, s := range doc.SourceDescriptions {
		if s.Name == name {
			return true
		}
	}
	return false
}

// escape writes a path as a JSON pointer token ("/" as ~1).
func escape(p string) string {
	return strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1")
}

// jsonOf decodes a JSON body.
func jsonOf(contentType, body string) (any, bool) {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		return nil, false
	}
	var v any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		return nil, false
	}
	return v, true
}
