package catalog

import (
	"fmt"

	"github.com/pb33f/libopenapi"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/utils"
)

// OpenOwn parses and builds a document of your own the way LoadOwn reads it for the catalog
// (the same document configuration, the same refusals), for what else is made of it: the
// sandbox built from the document (server/sandbox/fromdoc). file names it in errors. It returns
// the parsed document, whose root node is the document as read, and its OpenAPI 3 model.
func OpenOwn(file string, data []byte) (libopenapi.Document, *v3.Document, error) {
	if swagger2.Match(data[:min(len(data), 4096)]) {
		return nil, nil, &Error{File: file, Msg: "this is a Swagger 2.0 document; Loupe reads OpenAPI 3.0 and 3.1: convert it first (for example npx swagger2openapi " + file + ")"}
	}
	doc, err := libopenapi.NewDocumentWithConfiguration(data, documentConfig())
	if err != nil {
		return nil, nil, syntaxError(file, data, err)
	}
	model, err := doc.BuildV3Model()
	if model == nil {
		errs := utils.UnwrapErrors(err)
		if len(errs) == 0 {
			return nil, nil, &Error{File: file, Line: 1, Msg: "the document does not build"}
		}
		return nil, nil, &Error{File: file, Line: buildErrorLine(errs[0]), Msg: fmt.Sprint(errs[0])}
	}
	return doc, &model.Model, nil
}
