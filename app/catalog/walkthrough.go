package catalog

// Walkthrough is an onboarding walkthrough (an Arazzo document: content/walkthroughs/<id>.arazzo.yaml,
// one the configuration names, or one opened in the browser), compiled by server/walkthrough:
// what the runner page shows. The server evaluates its runtime expressions and criteria (the
// run protocol, walkrun.go); the app only shows and sends.
type Walkthrough struct {
	// ID names the page /walkthroughs/<id>; API is the slug of its first source's API, which
	// the overview lists it under.
	ID  string `json:"id"`
	API string `json:"api"`
	// Title and Summary are the document's; DescriptionHTML is its description, sanitized.
	Title           string `json:"title"`
	Summary         string `json:"summary,omitempty"`
	DescriptionHTML string `json:"descriptionHTML,omitempty"`
	// Aliases are other ids whose pages show this walkthrough (an id it had before a rename),
	// so that old links still work; nil means none.
	Aliases []string `json:"aliases,omitempty"`
	// Sources maps the document's source description names to the slugs of the APIs they
	// were matched to. The static explorer's sandbox module loads a document of the
	// configuration with it, where the files it names are not.
	Sources map[string]string `json:"sources,omitempty"`
	// Document is where the document itself is served, such as
	// "/arazzo/<id>.arazzo.yaml", for download and for other runners; "" when it is not.
	Document string `json:"document,omitempty"`
	// Workflows are the document's workflows, in document order; a run starts with the first
	// unless another is picked.
	Workflows []WalkWorkflow `json:"workflows,omitempty"`
}

// WalkWorkflow is one workflow of a walkthrough.
type WalkWorkflow struct {
	// ID is the workflowId; Summary and DescriptionHTML say what it does.
	ID              string `json:"id"`
	Summary         string `json:"summary,omitempty"`
	DescriptionHTML string `json:"descriptionHTML,omitempty"`
	// DependsOn are the workflows that run first, in order.
	DependsOn []string `json:"dependsOn,omitempty"`
	// Inputs are the workflow's inputs, required ones first.
	Inputs []WalkInput `json:"inputs,omitempty"`
	// Steps are the workflow's steps, in document order.
	Steps []WalkStep `json:"steps"`
	// Outputs are the names of the workflow's outputs.
	Outputs []string `json:"outputs,omitempty"`
}

// Workflow returns the walkthrough's workflow with the given id (its first for ""), or nil.
func (w *Walkthrough) Workflow(id string) *WalkWorkflow {
	for i := range w.Workflows {
		if id == "" || w.Workflows[i].ID == id {
			return &w.Workflows[i]
		}
	}
	return nil
}

// WalkInput is one input of a workflow.
type WalkInput struct {
	Name string `json:"name"`
	// Type is the JSON Schema type: string, integer, number, boolean, array or object ("" for
	// none); lists and objects are typed as JSON.
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	// Default is the default as text (JSON for a list or an object); "" when there is none.
	Default  string `json:"default,omitempty"`
	Required bool   `json:"required,omitempty"`
}

// WalkStep is one step: an operation of one of the walkthrough's APIs, or another workflow.
type WalkStep struct {
	ID string `json:"id"`
	// API and OperationID name the operation a step calls; WorkflowID the workflow a step
	// runs instead (then both are "").
	API             string `json:"api,omitempty"`
	OperationID     string `json:"operationId,omitempty"`
	WorkflowID      string `json:"workflowId,omitempty"`
	DescriptionHTML string `json:"descriptionHTML,omitempty"`
	// Criteria are the step's success criteria as written.
	Criteria []string `json:"criteria,omitempty"`
	// Outputs are the names of the values the step passes on.
	Outputs []string `json:"outputs,omitempty"`
}

// WalkResponse is a step's answer as the runner received it.
type WalkResponse struct {
	Status      int               `json:"status"`
	ContentType string            `json:"contentType,omitempty"`
	Headers     map[string]string `json:"headers,omitempty"`
	Body        string            `json:"body"`
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
