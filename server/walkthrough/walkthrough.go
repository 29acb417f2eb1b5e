// Package walkthrough loads the onboarding walkthroughs, content/walkthroughs/<id>.arazzo.yaml,
// and runs them. A walkthrough is an Arazzo 1.0 document with one workflow whose single source
// description is one of Loupe's OpenAPI documents (url: ../openapi/<slug>.yaml).
//
// Parsing, validation, runtime expressions, success criteria, outputs and onSuccess/onFailure
// are libopenapi's (github.com/pb33f/libopenapi/arazzo and arazzo/expression). This package adds
// what is Loupe's own: every operationId and parameter must exist in the catalog, every runtime
// expression must parse and name inputs and steps the document declares, and every problem is
// reported as "content/walkthroughs/<id>.arazzo.yaml:<line>: what is wrong", so that a broken
// document stops the server's start like an invalid OpenAPI document. Run executes a
// walkthrough with libopenapi's engine through an Executor that sends real HTTP requests,
// built by the same code as the app's forms (loupe/app/request).
package walkthrough

import (
	high "github.com/pb33f/libopenapi/datamodel/high/arazzo"

	"loupe/app/catalog"
)

// Walkthrough is one loaded, validated walkthrough.
type Walkthrough struct {
	// ID is the file name without ".arazzo.yaml"; it names the page /walkthroughs/<id>.
	ID string
	// File is the document's name as errors show it ("content/walkthroughs/<id>.arazzo.yaml").
	File string
	// Title and Summary come from the document's info.
	Title, Summary string
	// API is the API the walkthrough uses (its source description's document).
	API *catalog.API
	// Source is the name of the source description.
	Source string
	// Inputs are the workflow's inputs, in document order.
	Inputs []Input
	// Doc is the parsed document and Workflow its only workflow.
	Doc      *high.Arazzo
	Workflow *high.Workflow
}

// Input is one input of a walkthrough's workflow, from its JSON Schema.
type Input struct {
	// Name is the property name, used as $inputs.<name>.
	Name string `json:"name"`
	// Type is the JSON Schema type: string, integer, number or boolean.
	Type string `json:"type"`
	// Description says what the input is for.
	Description string `json:"description,omitempty"`
	// Default is the value used when none is given; "" when there is none.
	Default string `json:"default,omitempty"`
	// Required inputs must be given (or have a default).
	Required bool `json:"required,omitempty"`
}

// Set is the loaded walkthroughs, in file name order.
type Set struct {
	list    []*Walkthrough
	version string
}

// Version is a hash of the documents; it changes whenever one does.
func (s *Set) Version() string { return s.version }

// List returns the walkthroughs in file name order.
func (s *Set) List() []*Walkthrough {
	if s == nil {
		return nil
	}
	return s.list
}

// Get returns the walkthrough with the given id, or nil.
func (s *Set) Get(id string) *Walkthrough {
	for _, w := range s.List() {
		if w.ID == id {
			return w
		}
	}
	return nil
}

// IDs returns the ids of the walkthroughs, for messages naming what exists.
func (s *Set) IDs() []string {
	var ids []string
	for _, w := range s.List() {
		ids = append(ids, w.ID)
	}
	return ids
}
