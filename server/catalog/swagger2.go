package catalog

import (
	"encoding/json"
	"fmt"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"go.yaml.in/yaml/v4"
)

// fromSwagger2 converts a Swagger 2.0 document (YAML or JSON) to OpenAPI 3.0 with kin-openapi's
// openapi2conv, the converter most Go tools use: definitions become components.schemas,
// body and formData parameters a request body (form fields with their files), consumes and
// produces the media types, securityDefinitions the security schemes. No reference is
// followed outside the document. The result is JSON, on one line: problems found later name
// their JSON pointer, which is the same in the original for most of the document.
func fromSwagger2(file string, data []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, syntaxError(file, data, err)
	}
	if p := (&problems{file: file, root: &root}); !checkAliases(data, &root, p) {
		return nil, p.err()
	}
	raw, err := nodeJSON(&root)
	if err != nil {
		return nil, &Error{File: file, Msg: "Swagger 2.0: " + err.Error()}
	}
	var doc2 openapi2.T
	if err := json.Unmarshal(raw, &doc2); err != nil {
		return nil, &Error{File: file, Msg: fmt.Sprintf("Swagger 2.0: not a Swagger 2.0 document: %v", err)}
	}
	doc3, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, &Error{File: file, Msg: fmt.Sprintf("Swagger 2.0: converting it to OpenAPI 3.0: %v", err)}
	}
	out, err := json.Marshal(doc3)
	if err != nil {
		return nil, &Error{File: file, Msg: fmt.Sprintf("Swagger 2.0: writing it as OpenAPI 3.0: %v", err)}
	}
	return out, nil
}
