// Package flow runs Arazzo workflows one step at a time, from a document already loaded and
// checked (server/walkthrough loads documents with libopenapi and compiles them into this
// package's Document). It sends nothing itself: Run.Next says which request to send next, fully
// resolved, and Run.Answer takes what came back, judges the step (every success criterion, with
// why it held or failed), computes its outputs and follows the success or failure action the
// specification picks (goto, retry with retryAfter and retryLimit, end), entering and leaving the
// workflows that steps and actions call. A run's State is plain JSON, so a run can be stepped by a
// server that keeps nothing between two requests, and it is bounded by a step budget, so that no
// goto loop or retry runs forever.
//
// The package has no I/O and no syscall/js: the server, `loupe walk` and the WebAssembly modules
// use the same code. Criteria are Arazzo 1.0.1's four types: simple conditions (this package's
// own parser of the specification's literals and operators), regex (Go's regexp, RE2), jsonpath
// (RFC 9535, github.com/theory/jsonpath) and xpath (XPath 1.0, github.com/antchfx/xpath).
package flow

// Document is a loaded Arazzo document, every reference to its components resolved.
type Document struct {
	// Version is the document's arazzo field, such as "1.0.1".
	Version string `json:"arazzo"`
	// Sources are its source descriptions, in document order.
	Sources []Source `json:"sources"`
	// Workflows are its workflows, in document order.
	Workflows []*Workflow `json:"workflows"`
	// Parameters are components.parameters, by name, for $components.parameters.<name>.
	Parameters map[string]Param `json:"parameters,omitempty"`
}

// Source is a source description.
type Source struct {
	// Name is the description's name; URL is its url as written, the value of
	// $sourceDescriptions.<name>.url.
	Name string `json:"name"`
	URL  string `json:"url"`
	// Type is openapi or arazzo.
	Type string `json:"type,omitempty"`
}

// Workflow is one workflow. Its steps' parameters and actions already include the workflow's
// own (a step's definition overrides the workflow's one of the same name).
type Workflow struct {
	// ID is the workflowId.
	ID string `json:"workflowId"`
	// Summary and Description are the workflow's, as written (Markdown).
	Summary     string `json:"summary,omitempty"`
	Description string `json:"description,omitempty"`
	// Inputs is the inputs' JSON Schema with its $refs to components.inputs resolved; nil
	// when the workflow takes none.
	Inputs map[string]any `json:"inputs,omitempty"`
	// DependsOn lists the workflows that must have succeeded before this one runs.
	DependsOn []string `json:"dependsOn,omitempty"`
	// Steps are the steps in order.
	Steps []*Step `json:"steps"`
	// Outputs are the workflow's outputs, in document order.
	Outputs []Output `json:"outputs,omitempty"`
}

// Step is one step: a call to an operation, or to another workflow.
type Step struct {
	// ID is the stepId.
	ID string `json:"stepId"`
	// Description is the step's, as written (Markdown).
	Description string `json:"description,omitempty"`
	// Operation is the operation the step calls; nil when it calls a workflow.
	Operation *Operation `json:"operation,omitempty"`
	// WorkflowID is the workflow the step runs; empty when it calls an operation.
	WorkflowID string `json:"workflowId,omitempty"`
	// Parameters are sent to the operation (or are the called workflow's inputs).
	Parameters []Param `json:"parameters,omitempty"`
	// Body is the request body; nil when none is sent.
	Body *Body `json:"requestBody,omitempty"`
	// SuccessCriteria must all hold for the step to succeed; none means the request was
	// answered (or the called workflow succeeded).
	SuccessCriteria []Criterion `json:"successCriteria,omitempty"`
	// OnSuccess and OnFailure are the actions to pick from, the step's before the workflow's.
	OnSuccess []Action `json:"onSuccess,omitempty"`
	OnFailure []Action `json:"onFailure,omitempty"`
	// Outputs are the step's outputs, in document order.
	Outputs []Output `json:"outputs,omitempty"`
	// Extensions holds the step's x- fields, decoded.
	Extensions map[string]any `json:"extensions,omitempty"`
}

// Operation is an operation of a source description, found by the loader.
type Operation struct {
	// Source is the source description's name.
	Source string `json:"source"`
	// ID is the operation's operationId in its document; empty when it has none.
	ID string `json:"operationId,omitempty"`
	// Method (upper case) and Path (as in the document) say what is sent.
	Method string `json:"method"`
	Path   string `json:"path"`
}

// Param is a parameter: sent with a request (In is path, query, querystring, header or
// cookie), or an input of a called workflow (In is empty).
type Param struct {
	Name string `json:"name"`
	In   string `json:"in,omitempty"`
	// Value is a JSON value whose strings may be runtime expressions (see Resolve).
	Value any `json:"value"`
}

// Body is a step's request body.
type Body struct {
	// ContentType is the requestBody's contentType; empty means the operation's.
	ContentType string `json:"contentType,omitempty"`
	// Payload is a JSON value whose strings may be runtime expressions; a string payload is a
	// template (JSON, XML or form text) with embedded {$…} expressions.
	Payload any `json:"payload,omitempty"`
	// Replacements set values in the payload after it is resolved.
	Replacements []Replacement `json:"replacements,omitempty"`
}

// Replacement sets the value at Target (a JSON pointer) in a resolved payload.
type Replacement struct {
	Target string `json:"target"`
	Value  any    `json:"value"`
}

// Criterion is a success criterion or an action's criterion.
type Criterion struct {
	// Context is the runtime expression a regex, jsonpath or xpath condition applies to.
	Context string `json:"context,omitempty"`
	// Condition is the condition as written.
	Condition string `json:"condition"`
	// Type is simple (the default), regex, jsonpath or xpath.
	Type string `json:"type,omitempty"`
	// Version is the expression type's version (a Criterion Expression Type Object), such as
	// xpath-10; empty for the default.
	Version string `json:"version,omitempty"`
}

// Action is a success or failure action.
type Action struct {
	// Name is the action's name; Type is end, goto or retry.
	Name string `json:"name"`
	Type string `json:"type"`
	// StepID or WorkflowID is the target of a goto (or what a retry runs first).
	StepID     string `json:"stepId,omitempty"`
	WorkflowID string `json:"workflowId,omitempty"`
	// RetryAfter is the delay before a retry, in seconds.
	RetryAfter float64 `json:"retryAfter,omitempty"`
	// RetryLimit is how many retries a retry action allows; nil means one.
	RetryLimit *int `json:"retryLimit,omitempty"`
	// Criteria must all hold for the action to be picked; none means always.
	Criteria []Criterion `json:"criteria,omitempty"`
	// Parameters are the inputs of the workflow a goto or retry runs (Arazzo 1.1).
	Parameters []Param `json:"parameters,omitempty"`
}

// Output is a named output: a runtime expression, or a Selector Object (Arazzo 1.1.0).
type Output struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
	// Selector, when not nil, selects the output's value instead of Value.
	Selector *Selector `json:"selector,omitempty"`
}

// Eval evaluates an output.
func (o Output) Eval(ctx *Context) (any, error) {
	if o.Selector != nil {
		return ctx.Select(*o.Selector)
	}
	return ctx.String(o.Value)
}

// Workflow returns the workflow with the given id, or nil.
func (d *Document) Workflow(id string) *Workflow {
	for _, w := range d.Workflows {
		if w.ID == id {
			return w
		}
	}
	return nil
}

// StepIndex returns the index of the step with the given id, or -1.
func (w *Workflow) StepIndex(id string) int {
	for i, s := range w.Steps {
		if s.ID == id {
			return i
		}
	}
	return -1
}
