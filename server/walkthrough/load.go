package walkthrough

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/arazzo"
	high "github.com/pb33f/libopenapi/datamodel/high/arazzo"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
	servercatalog "loupe/server/catalog"
)

// Suffix ends every walkthrough file name.
const Suffix = ".arazzo.yaml"

// displayRoot prefixes file names in errors: the fs.FS Load reads is the content directory.
const displayRoot = "content"

// Load reads walkthroughs/*.arazzo.yaml from fsys (the content directory) and checks each
// against cat. The error, when there is one, joins every problem of every file, each as
// "file:line: message" (a *servercatalog.Error).
func Load(fsys fs.FS, cat *catalog.Catalog) (*Set, error) {
	names, err := fs.Glob(fsys, "walkthroughs/*"+Suffix)
	if err != nil {
		return nil, fmt.Errorf("walkthroughs: listing documents: %w", err)
	}
	set := &Set{}
	var errs []error
	hash := sha256.New()
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", path.Join(displayRoot, name), err))
			continue
		}
		fmt.Fprintf(hash, "%s %d\n", name, len(data))
		hash.Write(data)
		w, err := Parse(path.Join(displayRoot, name), data, cat)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		set.list = append(set.list, w)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	set.version = hex.EncodeToString(hash.Sum(nil))[:12]
	return set, nil
}

// Parse parses and checks one walkthrough document; file is its name as errors show it and
// names the walkthrough (the base name without Suffix).
func Parse(file string, data []byte, cat *catalog.Catalog) (*Walkthrough, error) {
	errAt := func(line int, format string, args ...any) error {
		return &servercatalog.Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	doc, err := libopenapi.NewArazzoDocument(data)
	if err != nil {
		return nil, errAt(yamlErrorLine(err), "not an Arazzo document: %v", err)
	}
	if res := arazzo.Validate(doc); res != nil && res.HasErrors() {
		var errs []error
		for _, e := range res.Errors {
			errs = append(errs, errAt(e.Line, "%s: %v", e.Path, e.Cause))
		}
		return nil, errors.Join(errs...)
	}
	w := &Walkthrough{ID: strings.TrimSuffix(path.Base(file), Suffix), File: file, Doc: doc}
	if doc.Info != nil {
		w.Title, w.Summary = doc.Info.Title, doc.Info.Summary
	}
	if !strings.HasPrefix(doc.Arazzo, "1.0.") {
		return nil, errAt(1, "arazzo %q: walkthroughs are Arazzo 1.0.x documents", doc.Arazzo)
	}
	if len(doc.SourceDescriptions) != 1 || len(doc.Workflows) != 1 {
		return nil, errAt(1, "a walkthrough has exactly one source description (an OpenAPI document of content/openapi/) and one workflow; this one has %d and %d",
			len(doc.SourceDescriptions), len(doc.Workflows))
	}
	src := doc.SourceDescriptions[0]
	slug := strings.TrimSuffix(path.Base(src.URL), ".yaml")
	w.Source = src.Name
	if w.API = cat.API(slug); w.API == nil || src.URL != "../openapi/"+slug+".yaml" {
		return nil, errAt(lowLine(src.GoLow().RootNode), "sourceDescriptions[0].url %q: expected ../openapi/<slug>.yaml for one of the catalog's APIs", src.URL)
	}
	w.Workflow = doc.Workflows[0]
	if w.Inputs, err = parseInputs(w.Workflow.Inputs); err != nil {
		return nil, errAt(lowLine(w.Workflow.Inputs), "workflow inputs: %v", err)
	}
	if errs := check(w); len(errs) > 0 {
		var all []error
		for _, e := range errs {
			all = append(all, errAt(e.line, "%s", e.msg))
		}
		return nil, errors.Join(all...)
	}
	return w, nil
}

// parseInputs reads the workflow's inputs schema: an object whose properties are scalars.
func parseInputs(n *yaml.Node) ([]Input, error) {
	if n == nil {
		return nil, nil
	}
	var schema struct {
		Type       string    `yaml:"type"`
		Required   []string  `yaml:"required"`
		Properties yaml.Node `yaml:"properties"`
	}
	if err := n.Decode(&schema); err != nil {
		return nil, err
	}
	if schema.Type != "object" {
		return nil, fmt.Errorf("type %q: expected object", schema.Type)
	}
	var out []Input
	props := schema.Properties.Content
	for i := 0; i+1 < len(props); i += 2 {
		var p struct {
			Type        string    `yaml:"type"`
			Description string    `yaml:"description"`
			Default     yaml.Node `yaml:"default"`
		}
		if err := props[i+1].Decode(&p); err != nil {
			return nil, fmt.Errorf("%s: %w", props[i].Value, err)
		}
		switch p.Type {
		case "string", "integer", "number", "boolean":
		default:
			return nil, fmt.Errorf("%s: type %q: an input is a string, integer, number or boolean", props[i].Value, p.Type)
		}
		in := Input{Name: props[i].Value, Type: p.Type, Description: p.Description, Default: p.Default.Value}
		for _, r := range schema.Required {
			in.Required = in.Required || r == in.Name
		}
		out = append(out, in)
	}
	for _, r := range schema.Required {
		if !hasInput(out, r) {
			return nil, fmt.Errorf("required %q is not a property", r)
		}
	}
	return out, nil
}

func hasInput(ins []Input, name string) bool {
	for _, in := range ins {
		if in.Name == name {
			return true
		}
	}
	return false
}

// lowLine is the line of a node, 0 when there is none.
func lowLine(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	return n.Line
}

// yamlErrorLine finds the line a YAML syntax error names, 0 when none.
func yamlErrorLine(err error) int {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return 0
	}
	var line int
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		fmt.Sscanf(msg[i:], "line %d", &line)
	}
	return line
}

// High returns the workflow's step with the given id, or nil.
func (w *Walkthrough) step(id string) *high.Step {
	for _, s := range w.Workflow.Steps {
		if s.StepId == id {
			return s
		}
	}
	return nil
}
