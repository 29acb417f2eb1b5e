package catalog

import "encoding/json"

// The run protocol of walkthroughs (POST /walkthroughs/<id>/run): the server (or the static
// explorer's sandbox module) holds no run between two requests; each answer carries the run's
// state, which the runner sends back with the answer to the request it was asked to send. It
// runs every workflow of a document: several workflows, steps that run other workflows,
// retries and gotos, each step's criteria with why each held or failed.

// WalkRunRequest starts a run (State empty: Workflow and Inputs) or continues one (State as the
// last answer gave it, Response the answer to its Call; no Response asks for the Call again).
type WalkRunRequest struct {
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
	// Workflow and Step say whose request it is; Depth how deep its workflow is called.
	Workflow string `json:"workflow"`
	Step     string `json:"step"`
	Depth    int    `json:"depth,omitempty"`
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
	Workflow string `json:"workflow"`
	Step     string `json:"step"`
	Depth    int    `json:"depth,omitempty"`
	Attempt  int    `json:"attempt"`
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
