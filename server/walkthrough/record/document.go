package record

import (
	"encoding/json"

	"go.yaml.in/yaml/v4"
)

// Document is a recorded Arazzo document, its fields in the specification's order.
type Document struct {
	Arazzo             string     `json:"arazzo" yaml:"arazzo"`
	Info               Info       `json:"info" yaml:"info"`
	SourceDescriptions []Source   `json:"sourceDescriptions" yaml:"sourceDescriptions"`
	Workflows          []Workflow `json:"workflows" yaml:"workflows"`
}

// Info is the document's info.
type Info struct {
	Title   string `json:"title" yaml:"title"`
	Summary string `json:"summary,omitempty" yaml:"summary,omitempty"`
	Version string `json:"version" yaml:"version"`
}

// Source is a source description.
type Source struct {
	Name string `json:"name" yaml:"name"`
	URL  string `json:"url" yaml:"url"`
	Type string `json:"type" yaml:"type"`
}

// Workflow is the recorded workflow.
type Workflow struct {
	WorkflowID string  `json:"workflowId" yaml:"workflowId"`
	Steps      []*Step `json:"steps" yaml:"steps"`
}

// Step is one recorded request.
type Step struct {
	StepID          string            `json:"stepId" yaml:"stepId"`
	Description     string            `json:"description,omitempty" yaml:"description,omitempty"`
	OperationPath   string            `json:"operationPath" yaml:"operationPath"`
	Parameters      []Parameter       `json:"parameters,omitempty" yaml:"parameters,omitempty"`
	RequestBody     *RequestBody      `json:"requestBody,omitempty" yaml:"requestBody,omitempty"`
	SuccessCriteria []Criterion       `json:"successCriteria" yaml:"successCriteria"`
	Outputs         map[string]string `json:"outputs,omitempty" yaml:"outputs,omitempty"`
}

// Parameter is a parameter as sent, its carried values written as runtime expressions.
type Parameter struct {
	Name  string `json:"name" yaml:"name"`
	In    string `json:"in" yaml:"in"`
	Value any    `json:"value" yaml:"value"`
}

// RequestBody is a body as sent.
type RequestBody struct {
	ContentType string `json:"contentType,omitempty" yaml:"contentType,omitempty"`
	Payload     any    `json:"payload" yaml:"payload"`
}

// Criterion is a success criterion.
type Criterion struct {
	Condition string `json:"condition" yaml:"condition"`
}

// YAML writes the document as YAML (a .arazzo.yaml file).
func (d *Document) YAML() ([]byte, error) { return yaml.Marshal(d) }

// JSON writes the document as indented JSON (a .arazzo.json file).
func (d *Document) JSON() ([]byte, error) { return json.MarshalIndent(d, "", "  ") }
