package reports

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"go.yaml.in/yaml/v4"
)

// Parameter types of x-loupe-event-parameters, and the value field each is sent in.
const (
	typeString  = "string"  // value
	typeInteger = "integer" // intValue, a decimal string
	typeBoolean = "boolean" // boolValue
)

// catalog is what the sandbox reads from the OpenAPI document at start: the calendar events,
// their parameters and the values the path parameter applicationName may take. The UI reads
// the same extensions, so there is one copy of the catalogue.
type catalog struct {
	events       []eventDef           // x-loupe-events, in document order
	byName       map[string]*eventDef // events by name
	params       map[string]paramDef  // x-loupe-event-parameters by name
	groups       map[string]bool      // x-loupe-event-groups
	applications []string             // the applicationName enum
}

// eventDef is one entry of x-loupe-events.
type eventDef struct {
	Name       string   `yaml:"name"`
	Group      string   `yaml:"group"`
	Parameters []string `yaml:"parameters"`
	Message    string   `yaml:"message"`
}

// paramDef is one entry of x-loupe-event-parameters.
type paramDef struct {
	Type             string   `yaml:"type"`
	Shared           bool     `yaml:"shared"`
	Enum             []string `yaml:"enum"`
	GregorianSeconds bool     `yaml:"gregorianSeconds"`
	UnixOffset       int64    `yaml:"unixOffset"`
}

// specDoc is the part of the OpenAPI document the catalogue is read from.
type specDoc struct {
	Paths map[string]map[string]struct {
		Events     []eventDef          `yaml:"x-loupe-events"`
		Params     map[string]paramDef `yaml:"x-loupe-event-parameters"`
		Groups     map[string]any      `yaml:"x-loupe-event-groups"`
		Parameters []struct {
			Name   string `yaml:"name"`
			Schema struct {
				Enum []string `yaml:"enum"`
			} `yaml:"schema"`
		} `yaml:"parameters"`
	} `yaml:"paths"`
}

// loadCatalog reads and checks the catalogue of the list operation in the document at name.
func loadCatalog(fsys fs.FS, name string) (*catalog, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("reading the reports document: %w", err)
	}
	var doc specDoc
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("parsing %s: %w", name, err)
	}
	op, ok := doc.Paths[ListPattern]["get"]
	if !ok {
		return nil, fmt.Errorf("%s has no GET %s", name, ListPattern)
	}
	c := &catalog{
		events: op.Events,
		byName: make(map[string]*eventDef, len(op.Events)),
		params: op.Params,
		groups: make(map[string]bool, len(op.Groups)),
	}
	for g := range op.Groups {
		c.groups[g] = true
	}
	for _, p := range op.Parameters {
		if p.Name == "applicationName" {
			c.applications = p.Schema.Enum
		}
	}
	for i := range c.events {
		if _, dup := c.byName[c.events[i].Name]; dup {
			return nil, fmt.Errorf("the catalogue in %s: event %s is listed twice", name, c.events[i].Name)
		}
		c.byName[c.events[i].Name] = &c.events[i]
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("the catalogue in %s: %w", name, err)
	}
	return c, nil
}

// check reports the first inconsistency: no calendar application, an event of an unknown
// group or with an undefined parameter, a parameter of an unknown type, a Gregorian parameter
// without its offset.
func (c *catalog) check() error {
	if len(c.events) == 0 {
		return errors.New("x-loupe-events is empty")
	}
	if !slices.Contains(c.applications, calendarApp) {
		return fmt.Errorf("applicationName does not allow %q", calendarApp)
	}
	for name, p := range c.params {
		switch p.Type {
		case typeString, typeInteger, typeBoolean:
		default:
			return fmt.Errorf("parameter %s has type %q; want string, integer or boolean", name, p.Type)
		}
		if p.GregorianSeconds && (p.Type != typeInteger || p.UnixOffset == 0) {
			return fmt.Errorf("parameter %s is in Gregorian seconds but is not an integer with a unixOffset", name)
		}
	}
	for _, e := range c.events {
		if !c.groups[e.Group] {
			return fmt.Errorf("event %s has the unknown group %q", e.Name, e.Group)
		}
		for _, p := range e.Parameters {
			if _, ok := c.params[p]; !ok {
				return fmt.Errorf("event %s has the undefined parameter %s", e.Name, p)
			}
		}
	}
	return nil
}
