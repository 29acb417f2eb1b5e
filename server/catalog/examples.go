package catalog

import (
	"strings"

	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	"github.com/pb33f/libopenapi/orderedmap"
	"go.yaml.in/yaml/v4"
)

// checkExamples validates a JSON media type's examples (example and every one of examples)
// against its schema: the UI fills forms with them and shows them as sample answers, so one
// that does not match its schema would teach the wrong shape. Each failure is reported at
// the line of the offending value inside the example. Examples of recursive schemas are
// not checked: libopenapi-validator cannot compile those on their own.
func (c *compiler) checkExamples(where, ct string, schema *base.SchemaProxy, example *yaml.Node, examples *orderedmap.Map[string, *base.Example]) {
	if schema == nil || !isJSON(ct) || c.own {
		return // a document of your own is taken as it is
	}
	nodes := []*yaml.Node{example}
	for _, ex := range examples.FromOldest() {
		nodes = append(nodes, ex.Value)
	}
	for _, n := range nodes {
		if n != nil {
			c.checkValue(where+" example", schema, n)
		}
	}
}

// checkValue validates one value against a schema with libopenapi-validator.
func (c *compiler) checkValue(what string, schema *base.SchemaProxy, value *yaml.Node) {
	s := schema.Schema()
	payload, err := nodeJSON(value)
	if s == nil || err != nil {
		return // reported where the schema and the value are compiled
	}
	if c.values == nil {
		c.values = schema_validation.NewSchemaValidator()
	}
	ok, verrs := c.values.ValidateSchemaBytesWithVersion(s, payload, 3.1)
	if ok {
		return
	}
	for _, ve := range verrs {
		if ve.Message == "schema compilation failed" {
			// The validator renders the schema on its own, where a recursive schema's
			// $ref to itself points nowhere: such examples cannot be checked this way.
			continue
		}
		reported := false
		for _, f := range ve.SchemaValidationErrors {
			if f.OriginalJsonSchemaError != nil {
				reportLeaves(f.OriginalJsonSchemaError, value, c.p, what)
				reported = true
				break
			}
		}
		if !reported {
			c.p.add(value, "%s: %s", what, cleanReason(ve.Reason))
		}
	}
}

// isJSON reports whether a media type is JSON (application/json, application/ld+json...).
func isJSON(ct string) bool {
	ct, _, _ = strings.Cut(ct, ";")
	return ct == "application/json" || strings.HasSuffix(ct, "+json")
}

// cleanReason trims the validator's reasons to one line.
func cleanReason(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
