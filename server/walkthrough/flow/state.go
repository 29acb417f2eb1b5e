package flow

// DefaultBudget is how many steps a run may begin, retries and goto loops included, when
// Options.Budget is zero. Redocly Respect's default (--max-steps) is 2000; a walkthrough is
// something a person follows, and a thousand steps is far past any of them.
const DefaultBudget = 1000

// Options bounds a run.
type Options struct {
	// Budget is how many steps the run may begin, each retry and each step a goto comes back
	// to counted again. Zero means DefaultBudget.
	Budget int
	// Inputs are the inputs of the workflows the one asked for depends on (dependsOn), by
	// workflowId; nil gives them their inputs' defaults only.
	Inputs map[string]map[string]any
}

// State is where a run is: plain JSON, so that a run can be stepped by a server that keeps
// nothing between two requests (the browser sends the state back with each answer).
type State struct {
	// Target is the workflow asked for.
	Target string `json:"target"`
	// Stack holds the workflows running, the first the outermost; a step or an action that
	// runs a workflow pushes one.
	Stack []Frame `json:"stack,omitempty"`
	// Queue holds the workflows still to run at the top, in order: the ones Target depends
	// on, then Target.
	Queue []Queued `json:"queue,omitempty"`
	// Workflows are the workflows finished so far, by workflowId ($workflows.<id>).
	Workflows map[string]*WorkflowResult `json:"workflows,omitempty"`
	// Begun counts the steps begun; Budget bounds it.
	Begun  int `json:"begun"`
	Budget int `json:"budget"`
	// Wait is the delay, in seconds, before the next request (a retry's retryAfter).
	Wait float64 `json:"wait,omitempty"`
	// Pending is the request waiting for its answer; nil when none is.
	Pending *Call `json:"pending,omitempty"`
	// Finished is true once the run is over; OK says whether Target succeeded, Error why not.
	Finished bool   `json:"finished,omitempty"`
	OK       bool   `json:"ok,omitempty"`
	Error    string `json:"error,omitempty"`
	// Outputs are Target's outputs, once it succeeded.
	Outputs map[string]any `json:"outputs,omitempty"`
}

// Queued is a workflow waiting to run at the top of a run.
type Queued struct {
	Workflow string         `json:"workflow"`
	Inputs   map[string]any `json:"inputs,omitempty"`
}

// Frame is a running workflow.
type Frame struct {
	// Workflow is its workflowId; Step the index of the step it is at.
	Workflow string `json:"workflow"`
	Step     int    `json:"step"`
	// Inputs are its inputs, defaults filled in.
	Inputs map[string]any `json:"inputs,omitempty"`
	// Outputs are the outputs of its steps that succeeded, by stepId.
	Outputs map[string]map[string]any `json:"outputs,omitempty"`
	// Retries counts the retries of each step since it last succeeded, by stepId.
	Retries map[string]int `json:"retries,omitempty"`
	// Return says what its caller does when it ends: "step" (a step that runs a workflow is
	// judged), "goto" (the caller ends too) or "retry" (the caller's step runs again); empty
	// at the top.
	Return string `json:"return,omitempty"`
	// Last is its last exchange, which the step that ran it reads as $statusCode and
	// $response.
	Last *Exchange `json:"last,omitempty"`
	// Detour is, during a retry that runs another step first, the index + 1 of the step to
	// come back to; 0 otherwise.
	Detour int `json:"detour,omitempty"`
}

// Call is the request a run needs sent next, resolved.
type Call struct {
	// Workflow and Step say whose request it is; Depth is how many workflows the step's is
	// nested in (0 at the top).
	Workflow string `json:"workflow"`
	Step     string `json:"step"`
	Depth    int    `json:"depth"`
	// Outer names the steps whose workflows called it, outermost first, each as
	// "workflowId/stepId"; nil at the top.
	Outer []string `json:"outer,omitempty"`
	// Operation is what to call.
	Operation Operation `json:"operation"`
	// Params are the parameters with their values.
	Params []ParamValue `json:"params,omitempty"`
	// Body is the request body; nil when none is sent.
	Body *BodyValue `json:"body,omitempty"`
	// After is how long to wait before sending, in seconds (a retry's retryAfter, or the
	// Retry-After header of the answer that failed).
	After float64 `json:"after,omitempty"`
	// Attempt is 1, then 2 for the first retry, and so on.
	Attempt int `json:"attempt"`
}

// ParamValue is a parameter of a call.
type ParamValue struct {
	Name string `json:"name"`
	In   string `json:"in"`
	// Value is the parameter's value: a string, number, boolean, list or object.
	Value any `json:"value"`
	// From is the runtime expression the value was written as; empty for a literal.
	From string `json:"from,omitempty"`
}

// BodyValue is the body of a call.
type BodyValue struct {
	// ContentType is the requestBody's; empty means the operation's.
	ContentType string `json:"contentType,omitempty"`
	// Value is the payload resolved: a JSON value, or text for a string payload.
	Value any `json:"value"`
	// From marks the values of the payload written as runtime expressions.
	From []Carried `json:"from,omitempty"`
}

// Carried is a value of a body that came from a runtime expression.
type Carried struct {
	// Pointer is the value's JSON pointer in the body ("/messages/2/tool_call_id").
	Pointer string `json:"pointer"`
	// From is the expression ("$steps.callTool.outputs.callId").
	From string `json:"from"`
}

// Response is the answer to a call.
type Response struct {
	// Status is 0 when no answer arrived; Err says why.
	Status int    `json:"status"`
	Err    string `json:"error,omitempty"`
	// URL and Method are what was sent.
	URL    string `json:"url,omitempty"`
	Method string `json:"method,omitempty"`
	// Header holds the answer's headers.
	Header map[string][]string `json:"header,omitempty"`
	// Body is a JSON body decoded, any other body as text.
	Body any `json:"body,omitempty"`
}

// StepResult is what became of a step.
type StepResult struct {
	// Workflow and Step name it; Depth is how deep its workflow is; Attempt counts retries.
	Workflow string `json:"workflow"`
	Step     string `json:"step"`
	Depth    int    `json:"depth"`
	Attempt  int    `json:"attempt"`
	// Outer names the steps whose workflows called it, as Call's does.
	Outer []string `json:"outer,omitempty"`
	// Exchange is the request and answer; nil for a step that runs a workflow or one whose
	// request could not be built.
	Exchange *Exchange `json:"exchange,omitempty"`
	// OK is true when every criterion held and every output could be computed.
	OK bool `json:"ok"`
	// Criteria say what became of each success criterion, and why.
	Criteria []CriterionResult `json:"criteria,omitempty"`
	// Outputs are the step's outputs, when it succeeded.
	Outputs map[string]any `json:"outputs,omitempty"`
	// Error says why the step failed besides its criteria; empty otherwise.
	Error string `json:"error,omitempty"`
	// Action is what the run did next.
	Action Taken `json:"action"`
}

// Taken is the action a run took after a step.
type Taken struct {
	// Kind is next (the next step in order), goto, retry, end (the workflow ends) or fail
	// (no failure action applied: the workflow fails).
	Kind string `json:"kind"`
	// Name is the success or failure action's name; empty for next and fail.
	Name string `json:"name,omitempty"`
	// Target is the step or workflow a goto or retry goes to first.
	Target string `json:"target,omitempty"`
	// Retry counts the retries so far and Limit allows them; After is the wait, in seconds.
	Retry int     `json:"retry,omitempty"`
	Limit int     `json:"limit,omitempty"`
	After float64 `json:"after,omitempty"`
}
