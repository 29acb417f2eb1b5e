package catalog

import (
	"fmt"
	"strings"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v4"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer formats JSON Schema error kinds in English.
var printer = message.NewPrinter(language.English)

// validate checks the document against the OpenAPI 3.1 JSON Schema with
// libopenapi-validator, and records each failure at the line of the node it is about. It
// calls schema_validation.ValidateOpenAPIDocument, which is all that
// validator.NewValidator(doc).ValidateDocument() runs, without the request and response
// validators (and their schema cache warm-up) NewValidator builds first.
//
// The validator's own report flattens failures to "validation failed" at the top of each
// branch; the JSON Schema error tree it keeps (OriginalJsonSchemaError) has the precise
// causes, so the leaves of that tree are reported, located in the YAML tree by their
// instance path.
func validate(doc libopenapi.Document, root *yaml.Node, p *problems) {
	// libopenapi v0.40 builds the JSON view of the document lazily; the validator (written
	// against an older libopenapi) reads the field directly, so build it first.
	doc.GetSpecInfo().GetSpecJSON()
	ok, verrs := schema_validation.ValidateOpenAPIDocument(doc)
	if ok {
		return
	}
	for _, ve := range verrs {
		var tree *jsonschema.ValidationError
		for _, f := range ve.SchemaValidationErrors {
			if f.OriginalJsonSchemaError != nil {
				tree = f.OriginalJsonSchemaError
				break
			}
		}
		if tree != nil {
			reportLeaves(tree, root, p, "")
			continue
		}
		for _, f := range ve.SchemaValidationErrors {
			p.addLine(f.Line, "%s: %s", f.FieldPath, f.Reason)
		}
		if len(ve.SchemaValidationErrors) == 0 {
			p.addLine(ve.SpecLine, "%s: %s", ve.Message, ve.Reason)
		}
	}
}

// leaf is one precise cause of a validation failure.
type leaf struct {
	path    []string
	msg     string
	schema  string
	unknown bool // a false schema: the field is not allowed where it is
}

// reportLeaves records the leaves of a JSON Schema error tree, located in root (the
// document, or an example) and named after prefix when there is one. Alternatives of a oneOf
// between a Reference Object and the real object fail on both branches; the Reference
// branch's complaints ("missing property '$ref'") are noise when the object is not a
// reference, so they are dropped when other causes exist, and so is "unknown field" for a
// field that has a precise complaint.
func reportLeaves(tree *jsonschema.ValidationError, root *yaml.Node, p *problems, prefix string) {
	var leaves []leaf
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			_, unknown := e.ErrorKind.(*kind.FalseSchema)
			leaves = append(leaves, leaf{path: e.InstanceLocation, msg: leafMessage(e), schema: e.SchemaURL, unknown: unknown})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(tree)
	// A field with a wrong value also fails the branches where it is not allowed at all;
	// the value's complaint is the useful one.
	precise := map[string]bool{}
	for _, l := range leaves {
		if !l.unknown {
			precise[strings.Join(l.path, "/")] = true
		}
	}
	var kept []leaf
	for _, l := range leaves {
		if !strings.Contains(l.schema, "/$defs/reference") && !(l.unknown && precise[strings.Join(l.path, "/")]) {
			kept = append(kept, l)
		}
	}
	if len(kept) == 0 {
		kept = leaves
	}
	for _, l := range kept {
		key, value := lookup(root, l.path...)
		node := key
		if node == nil {
			node = value
		}
		where := jsonPath(l.path)
		if prefix != "" {
			where = prefix
			if len(l.path) > 0 {
				where += " at " + strings.Join(l.path, ".")
			}
		}
		p.add(node, "%s: %s", where, l.msg)
	}
}

// leafMessage words a cause; "false schema" means a field the specification does not have.
func leafMessage(e *jsonschema.ValidationError) string {
	if _, ok := e.ErrorKind.(*kind.FalseSchema); ok && len(e.InstanceLocation) > 0 {
		return fmt.Sprintf("unknown field %q", e.InstanceLocation[len(e.InstanceLocation)-1])
	}
	return e.ErrorKind.LocalizedString(printer)
}

// jsonPath writes an instance location as paths./a.get.responses.
func jsonPath(path []string) string {
	if len(path) == 0 {
		return "document"
	}
	return strings.Join(path, ".")
}
