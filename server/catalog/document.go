package catalog

import (
	"errors"
	"log/slog"
	"strconv"
	"strings"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/index"
	"github.com/pb33f/libopenapi/utils"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
)

// compileDocument parses, builds, validates and compiles one OpenAPI document. file names
// it in errors. Every problem found is returned, each with its line, joined.
func compileDocument(slug, file string, data []byte) (catalog.API, error) {
	return compile(slug, file, data, false)
}

// compile is compileDocument, for a shipped document (own false) or one of your own, read as
// compileOwn says.
func compile(slug, file string, data []byte, own bool) (catalog.API, error) {
	doc, err := libopenapi.NewDocumentWithConfiguration(data, documentConfig())
	if err != nil {
		return catalog.API{}, syntaxError(file, data, err)
	}
	p := &problems{file: file}
	info := doc.GetSpecInfo()
	root := info.RootNode
	switch {
	case own && !strings.HasPrefix(info.Version, "3.0") && !strings.HasPrefix(info.Version, "3.1"):
		key, _ := lookup(root, "openapi")
		p.add(key, "openapi %q: Loupe reads OpenAPI 3.0 and 3.1 documents", info.Version)
		return catalog.API{}, p.err()
	case !own && !strings.HasPrefix(info.Version, "3.1"):
		key, _ := lookup(root, "openapi")
		p.add(key, "openapi %q: Loupe reads OpenAPI 3.1 documents", info.Version)
		return catalog.API{}, p.err()
	}
	model, err := doc.BuildV3Model()
	for _, e := range utils.UnwrapErrors(err) {
		p.addLine(buildErrorLine(e), "%v", e)
	}
	if model == nil {
		if len(p.errs) == 0 {
			p.addLine(1, "the document does not build")
		}
		return catalog.API{}, p.err()
	}
	if !own {
		validate(doc, root, p)
	}
	if len(p.errs) > 0 && err != nil {
		// A model that did not build cleanly is partial: compiling it would only add noise.
		return catalog.API{}, p.err()
	}
	api := compileAPI(slug, &model.Model, p, own)
	if err := p.err(); err != nil {
		return catalog.API{}, err
	}
	return api, nil
}

// documentConfig is how every document is parsed (compile, OpenOwn).
func documentConfig() *datamodel.DocumentConfiguration {
	cfg := datamodel.NewDocumentConfiguration()
	// Problems are returned with their lines; libopenapi's own log would repeat them on stdout.
	cfg.Logger = slog.New(slog.DiscardHandler)
	return cfg
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
