// Package walkthrough loads Arazzo documents (the built-in content/walkthroughs/*.arazzo.yaml,
// and the files and folders the configuration's walkthroughs key names) and runs them against
// Loupe's APIs.
//
// A document is standard Arazzo 1.0.1 (or 1.1.0, for HTTP APIs): several workflows, dependsOn,
// steps that run other workflows, success and failure actions, components and references to
// them, every criterion type and runtime expressions everywhere. Loading parses it (YAML or
// JSON; libopenapi's Arazzo parser decides what is an Arazzo document), matches its source
// descriptions to Loupe's APIs (see Sources), binds each step to an operation of the catalog,
// and checks, before any request is sent, everything that would fail on the way: each problem
// is reported as "file:line: /json/pointer: what is wrong". A loaded document runs with the
// step-at-a-time runtime of loupe/server/walkthrough/flow: headless (Walk, `loupe walk`) or
// one step per request (Handler, the browser's runner).
package walkthrough

import (
	"slices"

	"loupe/app/catalog"
	"loupe/server/walkthrough/flow"
)

// Walkthrough is one loaded, checked document.
type Walkthrough struct {
	// ID names the walkthrough: its file name without .arazzo.yaml or .arazzo.json. It names
	// the page /walkthroughs/<id> and `loupe walk <id>`.
	ID string
	// Aliases are other ids that name it (info.x-loupe-aliases: the ids it had before a
	// rename), so that old links and `loupe walk <old id>` still find it.
	Aliases []string
	// File is the document's name as errors show it.
	File string
	// Title, Summary and Description come from the document's info (Description is Markdown).
	Title, Summary, Description string
	// Doc is the document, compiled for the runtime.
	Doc *flow.Document
	// Workflow is the workflow a run starts with when none is named: the first.
	Workflow *flow.Workflow
	// APIs are the APIs of the source descriptions, by source description name.
	APIs map[string]*catalog.API
	// API is the API of the first source description, which the catalog entry names.
	API *catalog.API
	// Data is the document as it was read.
	Data []byte
}

// Input is one input of a workflow, from its JSON Schema.
type Input struct {
	// Name is the property name, read as $inputs.<name>.
	Name string `json:"name"`
	// Type is the JSON Schema type; empty when the schema gives none.
	Type string `json:"type"`
	// Description says what the input is for.
	Description string `json:"description,omitempty"`
	// Default is the default as text (JSON for a list or an object); "" when there is none.
	Default string `json:"default,omitempty"`
	// Required inputs must be given (or have a default).
	Required bool `json:"required,omitempty"`
}

// Set is a collection of loaded walkthroughs, in the order they were loaded.
type Set struct {
	list    []*Walkthrough
	version string
}

// Version is a hash of the documents; it changes whenever one does.
func (s *Set) Version() string {
	if s == nil {
		return ""
	}
	return s.version
}

// List returns the walkthroughs.
func (s *Set) List() []*Walkthrough {
	if s == nil {
		return nil
	}
	return s.list
}

// Get returns the walkthrough with the given id or alias, or nil.
func (s *Set) Get(id string) *Walkthrough {
	for _, w := range s.List() {
		if w.ID == id || slices.Contains(w.Aliases, id) {
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

// Join returns a set of both sets' walkthroughs, s's first.
func (s *Set) Join(o *Set) *Set {
	out := &Set{version: s.Version() + o.Version()}
	out.list = append(append(out.list, s.List()...), o.List()...)
	return out
}
