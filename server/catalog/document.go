package catalog

import (
	"errors"
	"log/slog"
	"strconv"
	"strings"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	v3high "github.com/pb33f/libopenapi/datamodel/high/v3"
	v3low "github.com/pb33f/libopenapi/datamodel/low/v3"
	"github.com/pb33f/libopenapi/index"
	"github.com/pb33f/libopenapi/utils"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
)

// compileDocument parses, builds, validates and compiles one OpenAPI document. file names
// it in errors. Every problem found is returned, each with its line, joined. A document this
// process compiled before without a problem is not compiled again (compiledDocuments).
func compileDocument(slug, file string, data []byte) (catalog.API, error) {
	if api, ok := compiledDocuments.get(slug, file, data); ok {
		return api, nil
	}
	api, _, err := compile(slug, file, data, false)
	if err == nil {
		compiledDocuments.put(slug, file, data, api)
	}
	return api, err
}

// compile is compileDocument, for a shipped document (own false) or one of your own, read as
// compileOwn says. It also returns the document as libopenapi parsed and built it, for what
// else is made of a document of your own (its sandbox), which need not parse it again.
func compile(slug, file string, data []byte, own bool) (catalog.API, *Built, error) {
	cfg := documentConfig()
	doc, err := libopenapi.NewDocumentWithConfiguration(data, cfg)
	if err != nil {
		return catalog.API{}, nil, syntaxError(file, data, err)
	}
	info := doc.GetSpecInfo()
	root := info.RootNode
	p := &problems{file: file, root: root, pointers: own}
	if !checkAliases(data, root, p) {
		return catalog.API{}, nil, p.err()
	}
	switch {
	case own && !strings.HasPrefix(info.Version, "3.0") && !strings.HasPrefix(info.Version, "3.1"):
		key, _ := lookup(root, "openapi")
		p.add(key, "openapi %q: Loupe reads OpenAPI 3.0 and 3.1 documents", info.Version)
		return catalog.API{}, nil, p.err()
	case !own && !strings.HasPrefix(info.Version, "3.1"):
		key, _ := lookup(root, "openapi")
		p.add(key, "openapi %q: Loupe reads OpenAPI 3.1 documents", info.Version)
		return catalog.API{}, nil, p.err()
	}
	model, err := doc.BuildV3Model()
	if own && model == nil && err != nil {
		model, err = buildPast(info, cfg, err)
	}
	for _, e := range utils.UnwrapErrors(err) {
		var re *index.ResolvingError
		if own && model != nil && errors.As(e, &re) && re.CircularReference != nil {
			continue // the compiler stops a recursion with a stub (see schema)
		}
		if own && model != nil {
			// A $ref to nothing (an example's): the model is whole but for that place,
			// which the page names.
			msg := e.Error()
			if strings.Contains(msg, "does not exist in the specification") && !strings.Contains(msg, "`#") {
				msg += ": Loupe reads nothing outside the document; bundle it into one file first (for example redocly bundle)"
			}
			p.warnAt(buildErrorNode(e), "%s", msg)
			continue
		}
		p.addLine(buildErrorLine(e), "%v", e)
	}
	if own && model != nil {
		err = nil
	}
	if model == nil {
		if len(p.errs) == 0 {
			p.addLine(1, "the document does not build")
		}
		return catalog.API{}, nil, p.err()
	}
	if !own {
		validate(doc, root, p)
	}
	if len(p.errs) > 0 && err != nil {
		// A model that did not build cleanly is partial: compiling it would only add noise.
		return catalog.API{}, nil, p.err()
	}
	api := compileAPI(slug, &model.Model, model.Index, p, own)
	if err := p.err(); err != nil {
		return catalog.API{}, nil, err
	}
	api.Warnings = p.warningTexts()
	return api, &Built{Document: doc, Model: &model.Model}, nil
}

// documentConfig is how every document is parsed (compile, OpenOwn).
func documentConfig() *datamodel.DocumentConfiguration {
	cfg := datamodel.NewDocumentConfiguration()
	// Problems are returned with their lines; libopenapi's own log would repeat them on stdout.
	cfg.Logger = slog.New(slog.DiscardHandler)
	return cfg
}

// buildErrorNode returns the YAML node an error from BuildV3Model is about, or nil.
func buildErrorNode(err error) *yaml.Node {
	var re *index.ResolvingError
	if errors.As(err, &re) && re.Node != nil {
		return re.Node
	}
	var ie *index.IndexingError
	if errors.As(err, &ie) && ie.Node != nil {
		return ie.Node
	}
	return nil
}

// buildErrorLine finds the line of an error from BuildV3Model: reference and index errors
// carry their YAML node, others mention the line in their text, if at all.
func buildErrorLine(err error) int {
	var re *index.ResolvingError
	if errors.As(err, &re) && re.Node != nil {
		return re.Node.Line
	}
	var ie *index.IndexingError
	if errors.As(err, &ie) && ie.Node != nil {
		return ie.Node.Line
	}
	return lineFromText(err.Error())
}

// lookup walks a YAML tree along a path of mapping keys and sequence indexes. It returns
// the key node of the last step (nil for a sequence item) and the value node; when the path
// leaves the tree it returns the nodes of the deepest step that exists.
func lookup(n *yaml.Node, path ...string) (key, value *yaml.Node) {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	value = n
	for _, step := range path {
		if value == nil {
			return key, value
		}
		if value.Kind == yaml.AliasNode {
			value = value.Alias
		}
		switch value.Kind {
		case yaml.MappingNode:
			found := false
			for i := 0; i+1 < len(value.Content); i += 2 {
				if value.Content[i].Value == step {
					key, value, found = value.Content[i], value.Content[i+1], true
					break
				}
			}
			if !found {
				return key, value
			}
		case yaml.SequenceNode:
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(value.Content) {
				return key, value
			}
			key, value = nil, value.Content[i]
		default:
			return key, value
		}
	}
	return key, value
}

// buildPast builds the model of a document of your own that BuildV3Model refused for a
// reference to nothing (a missing example, a typo in a $ref): libopenapi's own steps, taken
// past that refusal. It returns the model and every problem found, or nil and the first error
// when the document has no model at all.
func buildPast(info *datamodel.SpecInfo, cfg *datamodel.DocumentConfiguration, first error) (*libopenapi.DocumentModel[v3high.Document], error) {
	lowDoc, err := v3low.CreateDocumentFromConfig(info, cfg)
	if lowDoc == nil {
		return nil, first
	}
	high := v3high.NewDocument(lowDoc)
	high.Rolodex = lowDoc.Index.GetRolodex()
	return &libopenapi.DocumentModel[v3high.Document]{Model: *high, Index: lowDoc.Index}, err
}
