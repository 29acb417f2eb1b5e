package catalog

import "encoding/json"

// The run protocol of walkthroughs (POST /walkthroughs/<id>/run, or POST /walkthroughs/run for
// a document the request carries): the server (or the static explorer's sandbox module) holds
// no run between two requests; each answer carries the run's state, which the runner sends
// back with the answer to the request it was asked to send. It runs every workflow of a
// document: several workflows, steps that run other workflows, retries and gotos, each step's
// criteria with why each held or failed.

// WalkRunRequest starts a run (State empty: Workflow and Inputs) or continues one (State as the
// last answer gave it, Response the answer to its Call; no Response asks for the Call again).
type WalkRunRequest struct {
	// Document is the Arazzo document to run, for POST /walkthroughs/run (a document that is
	// not in the catalog: a file opened in the browser, a recorded walkthrough); Name is its
	// file name and Origin the page's origin and base ("http://host/base"), which its source
	// descriptions' URLs may name. All three are ignored by /walkthroughs/<id>/run.
	Document string `json:"document,omitempty"`
	Name     string `json:"name,omitempty"`
	Origin   string `json:"origin,omitempty"`
	// Workflow is the workflowId to run; empty means the document's first.
	Workflow string `json:"workflow,omitempty"`
	// Inputs are the workflow's inputs as typed (lists and objects as JSON).
	Inputs map[string]string `json:"inputs,omitempty"`
	// State is the run's state from the previous answer; empty starts a run.
	State json.RawMessage `json:"state,omitempty"`
	// Response is the answer to the previous answer's Call.
	Response *WalkResponse `json:"response,omitempty"`
}

// WalkRunAnswer is where a run is.
type WalkRunAnswer struct {
	// Error says why the request cannot be served (bad inputs, a state from another version of
	// the document); the run is unchanged.
	Error string `json:"error,omitempty"`
	// Input names the workflow input Error is about, "" when it is about none.
	Input string `json:"input,omitempty"`
	// Problems are what is wrong with a document the request carried, each at its place;
	// nothing was run.
	Problems []WalkProblem `json:"problems,omitempty"`
	// State is to be sent back with the next request.
	State json.RawMessage `json:"state,omitempty"`
	// Call is the request to send next; nil when the run is over.
	Call *WalkCall `json:"call,omitempty"`
	// Steps are the steps judged since the previous answer, in order.
	Steps []WalkStepResult `json:"steps,omitempty"`
	// Finished is true once the run is over; OK says whether the workflow succeeded, Reason
	// why not, Hint what to try.
	Finished bool   `json:"finished,omitempty"`
	OK       bool   `json:"ok,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Hint     string `json:"hint,omitempty"`
	// Outputs are the workflow's outputs once it succeeded, each as JSON.
	Outputs map[string]json.RawMessage `json:"outputs,omitempty"`
	// Budget and Begun say how many steps the run may begin and has begun.
	Budget int `json:"budget"`
	Begun  int `json:"begun"`
}

// WalkCall is a request the runner is to send: an operation of an API, with its values.
type WalkCall struct {
	// Workflow and Step say whose request it is; Depth how deep its workflow is called, and
	// Outer the steps that called it, outermost first ("workflowId/stepId").
	Workflow string   `json:"workflow"`
	Step     string   `json:"step"`
	Depth    int      `json:"depth,omitempty"`
	Outer    []string `json:"outer,omitempty"`
	// API is the API's slug and OperationID the catalog's operation.
	API         string `json:"api"`
	OperationID string `json:"operationId"`
	// Params are the parameters (Values as the form's fields hold them; From the runtime
	// expression a value came from, empty for a literal).
	Params []WalkParam `json:"params,omitempty"`
	// Body is the request body as text (JSON indented); ContentType its type; BodyFrom marks
	// its values carried from elsewhere (Name a JSON pointer, In "body").
	Body        string      `json:"body,omitempty"`
	ContentType string      `json:"contentType,omitempty"`
	BodyFrom    []WalkParam `json:"bodyFrom,omitempty"`
	// After is how long to wait before sending, in seconds (a retry's retryAfter).
	After float64 `json:"after,omitempty"`
	// Attempt is 1, then 2 for the first retry, and so on.
	Attempt int `json:"attempt"`
}

// WalkStepResult is a judged step.
type WalkStepResult struct {
	// Workflow, Step, Depth and Outer say which step it is, as WalkCall's do.
	Workflow string   `json:"workflow"`
	Step     string   `json:"step"`
	Depth    int      `json:"depth,omitempty"`
	Outer    []string `json:"outer,omitempty"`
	Attempt  int      `json:"attempt"`
	// Status is the answer's status; 0 for a step that ran a workflow or sent nothing.
	Status int `json:"status,omitempty"`
	// OK is true when every criterion held and every output could be computed.
	OK bool `json:"ok"`
	// Criteria say what became of each criterion and why.
	Criteria []WalkCriterionWhy `json:"criteria,omitempty"`
	// Outputs are the step's outputs, each as JSON.
	Outputs map[string]json.RawMessage `json:"outputs,omitempty"`
	// Error says why the step failed besides its criteria.
	Error string `json:"error,omitempty"`
	// Action is what the run did next: Kind next, goto, retry, end or fail; Name the action's
	// name; Target the step or workflow gone to; Retry of Limit retries, After seconds.
	Action WalkAction `json:"action"`
	// Hint says what to try when the step failed.
	Hint string `json:"hint,omitempty"`
}

// WalkAction is what a run did after a step.
type WalkAction struct {
	Kind   string  `json:"kind"`
	Name   string  `json:"name,omitempty"`
	Target string  `json:"target,omitempty"`
	Retry  int     `json:"retry,omitempty"`
	Limit  int     `json:"limit,omitempty"`
	After  float64 `json:"after,omitempty"`
}

// WalkCriterionWhy is a criterion's outcome with why it held or failed: the values its
// expressions read, what a pattern or query found, or why it could not be evaluated.
type WalkCriterionWhy struct {
	Condition string `json:"condition"`
	Type      string `json:"type"`
	Outcome   string `json:"outcome"`
	Why       string `json:"why,omitempty"`
}

// WalkProblem is one thing wrong with an Arazzo document, at its place: the line (1-based; 0
// when unknown) and the JSON pointer ("/workflows/0/steps/1/operationId"; "" for the document
// as a whole).
type WalkProblem struct {
	Line    int    `json:"line,omitempty"`
	Pointer string `json:"pointer,omitempty"`
	Message string `json:"message"`
}

// WalkCheckRequest asks the server to load a document (POST /walkthroughs/check): the same
// checks as the configuration's walkthroughs get, before anything is sent.
type WalkCheckRequest struct {
	// Document is the Arazzo document (YAML or JSON); Name its file name, which gives the
	// walkthrough's id; Origin the page's origin and base, as in WalkRunRequest.
	Document string `json:"document"`
	Name     string `json:"name,omitempty"`
	Origin   string `json:"origin,omitempty"`
}

// WalkCheckAnswer is the loaded document as the runner shows it, or its problems.
type WalkCheckAnswer struct {
	// Error says why the request could not be served.
	Error string `json:"error,omitempty"`
	// Problems are what is wrong with the document, in document order; empty when it loads.
	Problems []WalkProblem `json:"problems,omitempty"`
	// Walkthrough is the document compiled, when it loads.
	Walkthrough *Walkthrough `json:"walkthrough,omitempty"`
}

// WalkRecordRequest asks the server to write a walkthrough of requests that were sent (POST
// /walkthroughs/record, the history's "Save as walkthrough").
type WalkRecordRequest struct {
	// Title is the document's title; "" means a default.
	Title string `json:"title,omitempty"`
	// Origin is the page's origin and base: the source descriptions name its
	// /openapi/<slug>.yaml, which other runners can fetch.
	Origin string `json:"origin,omitempty"`
	// Exchanges are the requests, in the order they are to run.
	Exchanges []WalkExchange `json:"exchanges"`
}

// WalkExchange is one request as sent and its answer.
type WalkExchange struct {
	// API and OperationID name the operation.
	API         string `json:"api"`
	OperationID string `json:"operationId"`
	// URL is the request's URL as sent to Loupe's proxy (/proxy/<slug>/<path>?<query>).
	URL string `json:"url"`
	// Headers are the operation's header parameters as sent (never a credential: the proxy
	// adds those).
	Headers map[string]string `json:"headers,omitempty"`
	// ContentType and Body are the request body; Body "" when none was sent.
	ContentType string `json:"contentType,omitempty"`
	Body        string `json:"body,omitempty"`
	// Status is the answer's status; ResponseContentType and ResponseBody its body, "" when
	// it was not kept (then no later request takes a value from it).
	Status              int    `json:"status"`
	ResponseContentType string `json:"responseContentType,omitempty"`
	ResponseBody        string `json:"responseBody,omitempty"`
}

// WalkRecordAnswer is the recorded document.
type WalkRecordAnswer struct {
	// Error says why nothing could be recorded.
	Error string `json:"error,omitempty"`
	// Document is the Arazzo document, as YAML; Name a file name for it.
	Document string `json:"document,omitempty"`
	Name     string `json:"name,omitempty"`
	// Walkthrough is the document as the runner shows it: the recorder's output is loaded by
	// the same loader as any other document before it is given.
	Walkthrough *Walkthrough `json:"walkthrough,omitempty"`
}
