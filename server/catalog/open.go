package catalog

import (
	"errors"
	"fmt"

	"github.com/pb33f/libopenapi"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/index"
	"github.com/pb33f/libopenapi/utils"
)

// Built is a document parsed and built by libopenapi: the parsed document, whose root node is
// the document as read, and its OpenAPI 3 model.
type Built struct {
	// Document is the parsed document.
	Document libopenapi.Document
	// Model is its OpenAPI 3 model.
	Model *v3.Document
}

// OpenOwn parses and builds a document of your own the way LoadOwn reads it for the catalog
// (the same document configuration, Swagger 2.0 converted to OpenAPI 3.0 with openapi2conv, a
// model built past $refs to nothing and circular references), for what else is made of it: the
// sandbox built from the document (server/sandbox/fromdoc). file names it in errors. It returns
// the parsed document, whose root node is the document as read (as converted, for Swagger 2.0),
// and its OpenAPI 3 model.
func OpenOwn(file string, data []byte) (libopenapi.Document, *v3.Document, error) {
	if swagger2.Match(data[:min(len(data), 4096)]) {
		converted, err := fromSwagger2(file, data)
		if err != nil {
			return nil, nil, err
		}
		data, file = converted, file+" (converted from Swagger 2.0)"
	}
	cfg := documentConfig()
	doc, err := libopenapi.NewDocumentWithConfiguration(data, cfg)
	if err != nil {
		return nil, nil, syntaxError(file, data, err)
	}
	model, err := doc.BuildV3Model()
	if model == nil && err != nil {
		model, err = buildPast(doc.GetSpecInfo(), cfg, err)
	}
	if model == nil {
		errs := utils.UnwrapErrors(err)
		if len(errs) == 0 {
			return nil, nil, &Error{File: file, Line: 1, Msg: "the document does not build"}
		}
		for _, e := range errs {
			var re *index.ResolvingError
			if !errors.As(e, &re) || re.CircularReference == nil {
				return nil, nil, &Error{File: file, Line: buildErrorLine(e), Msg: fmt.Sprint(e)}
			}
		}
		return nil, nil, &Error{File: file, Line: buildErrorLine(errs[0]), Msg: fmt.Sprint(errs[0])}
	}
	return doc, &model.Model, nil
}
