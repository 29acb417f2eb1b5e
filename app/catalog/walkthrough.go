package catalog

import "encoding/json"

// Walkthrough is an onboarding walkthrough (content/walkthroughs/<id>.arazzo.yaml), compiled by
// server/walkthrough: what the runner page shows. The server evaluates its runtime expressions
// and criteria (POST /walkthroughs/<id>/step); the app only shows and sends.
type Walkthrough struct {
	// ID names the page /walkthroughs/<id>; API is the slug of the API it uses.
	ID  string `json:"id"`
	API string `json:"api"`
	// Title and Summary are the document's; DescriptionHTML is its description, sanitized.
	Title           string `json:"title"`
	Summary         string `json:"summary,omitempty"`
	DescriptionHTML string `json:"descriptionHTML,omitempty"`
	// Inputs are the workflow's inputs, in document order.
	Inputs []WalkInput `json:"inputs,omitempty"`
	// Steps are the workflow's steps, in document order.
	Steps []WalkStep `json:"steps"`
}

// WalkInput is one input of a walkthrough.
type WalkInput struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	Default     string `json:"default,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// WalkStep is one step: an operation of the walkthrough's API.
type WalkStep struct {
	ID              string `json:"id"`
	OperationID     string `json:"operationId"`
	DescriptionHTML string `json:"descriptionHTML,omitempty"`
	// Criteria are the step's success criteria as written.
	Criteria []string `json:"criteria,omitempty"`
	// Outputs are the names of the values the step passes on.
	Outputs []string `json:"outputs,omitempty"`
}

// WalkStepRequest is what the runner posts to /walkthroughs/<id>/step: the run so far, and the
// step's answer once it was sent.
type WalkStepRequest struct {
	// Step is the stepId.
	Step string `json:"step"`
	// Inputs are the walkthrough's inputs as typed.
	Inputs map[string]string `json:"inputs,omitempty"`
	// Outputs are the outputs of the steps run so far, by stepId.
	Outputs map[string]map[string]json.RawMessage `json:"outputs,omitempty"`
	// Response is the step's answer; nil asks for the step's request instead.
	Response *WalkResponse `json:"response,omitempty"`
}

// WalkResponse is a step's answer as the runner received it.
type WalkResponse struct {
	Status      int               `json:"status"`
	ContentType string            `json:"contentType,omitempty"`
	Headers     map[string]string `json:"headers,omitempty"`
	Body        string            `json:"body"`
}

// WalkStepAnswer is the server's answer: the step's request (when no response was given), or
// what became of its criteria, its outputs and which step comes next.
type WalkStepAnswer struct {
	// Error says why the step cannot run or be judged (a missing input, an expression that
	// names a value the run does not have); empty otherwise.
	Error string `json:"error,omitempty"`
	// Params are the step's parameters with their values; Body is the request body as JSON.
	Params []WalkParam `json:"params,omitempty"`
	Body   string      `json:"body,omitempty"`
	// BodyFrom marks the body's values carried from elsewhere: each Name is the JSON pointer
	// of the value in Body ("/messages/2/tool_call_id"), In is "body".
	BodyFrom []WalkParam `json:"bodyFrom,omitempty"`
	// OK is true when every criterion held.
	OK bool `json:"ok"`
	// Criteria say what became of each success criterion.
	Criteria []WalkCriterion `json:"criteria,omitempty"`
	// Outputs are the values the step passes on.
	Outputs map[string]json.RawMessage `json:"outputs,omitempty"`
	// Next is the stepId to run next; empty when the walkthrough ends here.
	Next string `json:"next,omitempty"`
	// Hint says what to try after a failure.
	Hint string `json:"hint,omitempty"`
}

// WalkParam is one parameter of a step's request.
type WalkParam struct {
	Name   string   `json:"name"`
	In     string   `json:"in"`
	Values []string `json:"values"`
	// From is the runtime expression the value came from ("$steps.create.outputs.id"), empty
	// for a value written in the document.
	From string `json:"from,omitempty"`
}

// WalkCriterion is one success criterion and its outcome: passed, failed or not checked.
type WalkCriterion struct {
	Condition string `json:"condition"`
	Outcome   string `json:"outcome"`
}
