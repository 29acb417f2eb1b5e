package fromdoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/helpers"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	"github.com/pb33f/libopenapi/utils"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// checker validates made values against their schemas exactly as libopenapi-validator checks
// a response body: the schema rendered inline, compiled for the document's OpenAPI version
// with its vocabulary, the value read back from its JSON. Compiled schemas are kept.
type checker struct {
	version float32
	opts    *config.ValidationOptions

	mu       sync.Mutex
	compiled map[*base.SchemaProxy]*compiled
}

// compiled is one schema compiled, or why it could not be.
type compiled struct {
	schema *jsonschema.Schema
	err    error
}

// errUncheckable says a schema cannot be checked: libopenapi cannot render it inline (a
// schema that contains itself), or the result does not compile, so libopenapi-validator
// cannot check a value against it either.
var errUncheckable = errors.New("the schema cannot be checked")

func newChecker(version float32, opts *config.ValidationOptions) *checker {
	return &checker{version: version, opts: opts, compiled: map[*base.SchemaProxy]*compiled{}}
}

// compile returns the compiled schema of sp.
func (c *checker) compile(sp *base.SchemaProxy) *compiled {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k, ok := c.compiled[sp]; ok {
		return k
	}
	k := &compiled{}
	c.compiled[sp] = k
	s := sp.Schema()
	if s == nil {
		k.err = fmt.Errorf("the schema does not build: %v", sp.GetBuildError())
		return k
	}
	if c.opts.SchemaCache != nil && s.GoLow() != nil { // the validator compiled it already
		if e, ok := c.opts.SchemaCache.Load(s.GoLow().Hash()); ok && e != nil && e.CompiledSchema != nil {
			k.schema = e.CompiledSchema
			return k
		}
	}
	rendered, err := s.RenderInlineWithContext(base.NewInlineRenderContext())
	if err != nil {
		k.err = fmt.Errorf("%w: it cannot be rendered inline (%v)", errUncheckable, err)
		return k
	}
	js, err := utils.ConvertYAMLtoJSON(rendered)
	if err != nil {
		k.err = fmt.Errorf("rendering the schema: %w", err)
		return k
	}
	k.schema, err = helpers.NewCompiledSchemaWithVersion(fmt.Sprintf("%p", sp), js, c.opts, c.version)
	if err != nil {
		k.err = fmt.Errorf("%w: it does not compile (%v)", errUncheckable, err)
	}
	return k
}

// check validates a JSON body against sp: nil when it holds, errUncheckable when the schema
// cannot be checked, else the validator's reasons.
func (c *checker) check(sp *base.SchemaProxy, body []byte) error {
	if sp == nil {
		return nil
	}
	k := c.compile(sp)
	if k.err != nil {
		return k.err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("the value is not JSON: %w", err)
	}
	if err := k.schema.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return errors.New(firstReason(ve))
		}
		return err
	}
	return nil
}

// checkValue is check for a plain value.
func (c *checker) checkValue(sp *base.SchemaProxy, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.check(sp, body)
}

// english words the validator's reasons.
var english = message.NewPrinter(language.English)

// failure is one way a value breaks its schema.
type failure struct {
	path    string // the value's JSON path, $.owner.name
	reason  string // what is wrong, as the validator words it
	keyword string // the schema keyword that failed, as a JSON pointer
}

// failures lists every way v breaks sp (none when it holds or cannot be checked).
func (c *checker) failures(sp *base.SchemaProxy, v any) []failure {
	k := c.compile(sp)
	if k.err != nil {
		return nil
	}
	body, err := json.Marshal(v)
	if err != nil {
		return []failure{{path: "$", reason: err.Error()}}
	}
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	err = k.schema.Validate(doc)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	var out []failure
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, failure{path: jsonPath(e.InstanceLocation), reason: e.ErrorKind.LocalizedString(english), keyword: e.SchemaURL})
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// jsonPath writes an instance location as a JSON path.
func jsonPath(loc []string) string {
	at := "$"
	for _, p := range loc {
		at += "." + p
	}
	return at
}

// firstReason words the deepest cause of a validation error: where, and what was wrong.
func firstReason(ve *jsonschema.ValidationError) string {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return jsonPath(ve.InstanceLocation) + ": " + ve.ErrorKind.LocalizedString(english)
}
