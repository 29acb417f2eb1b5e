package fromdoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	verrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"
	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// validateMultipart checks a multipart/form-data body, which libopenapi-validator does not
// read: each part becomes a property (a file is its content as a string, a repeated name a
// list, a number or boolean property parsed as one, a JSON part decoded), and the object is
// checked against the body's schema.
func (d *Document) validateMultipart(r *http.Request, o *operation, body []byte) []*verrors.ValidationError {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || o.model.RequestBody == nil || o.model.RequestBody.Content == nil {
		return nil
	}
	media := o.model.RequestBody.Content.GetOrZero(mt)
	if media == nil || media.Schema == nil {
		return nil
	}
	fail := func(reason string) []*verrors.ValidationError {
		return []*verrors.ValidationError{{ValidationType: helpers.RequestBodyValidation, ValidationSubType: helpers.Schema,
			Reason: "The request body cannot be decoded: " + reason, HowToFix: "send a multipart/form-data body with a boundary"}}
	}
	if params["boundary"] == "" {
		return fail("the Content-Type has no boundary")
	}
	form, err := decodeMultipart(body, params["boundary"], media.Schema.Schema())
	if err != nil {
		return fail(err.Error())
	}
	fs := d.checks.failures(media.Schema, form)
	if len(fs) == 0 {
		return nil
	}
	e := &verrors.ValidationError{ValidationType: helpers.RequestBodyValidation, ValidationSubType: helpers.Schema,
		Reason: "the multipart body does not match its schema"}
	for _, f := range fs {
		e.SchemaValidationErrors = append(e.SchemaValidationErrors, &verrors.SchemaValidationFailure{Reason: f.reason, FieldPath: f.path, KeywordLocation: f.keyword})
	}
	return []*verrors.ValidationError{e}
}

// decodeMultipart reads the parts of a multipart body into an object shaped by schema.
func decodeMultipart(body []byte, boundary string, schema *base.Schema) (map[string]any, error) {
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	out := map[string]any{}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(io.LimitReader(part, 32<<20))
		if err != nil {
			return nil, err
		}
		name := part.FormName()
		if name == "" {
			continue
		}
		var prop *base.Schema
		if schema != nil && schema.Properties != nil {
			if sp := schema.Properties.GetOrZero(name); sp != nil {
				prop = sp.Schema()
			}
		}
		v := partValue(data, part.FileName() != "", part.Header.Get("Content-Type"), prop)
		if prev, ok := out[name]; ok {
			if l, ok := prev.([]any); ok {
				out[name] = append(l, v)
			} else {
				out[name] = []any{prev, v}
			}
			continue
		}
		if prop != nil && len(prop.Type) > 0 && prop.Type[0] == "array" {
			v = []any{v}
		}
		out[name] = v
	}
}

// partValue reads one part as the property's schema wants it.
func partValue(data []byte, file bool, ct string, prop *base.Schema) any {
	if file {
		return string(data)
	}
	if strings.Contains(ct, "json") {
		var v any
		if json.Unmarshal(data, &v) == nil {
			return v
		}
	}
	s := string(data)
	if prop == nil || len(prop.Type) == 0 {
		return s
	}
	t := prop.Type[0]
	if t == "array" && prop.Items != nil && prop.Items.IsA() {
		if is := prop.Items.A.Schema(); is != nil && len(is.Type) > 0 {
			t = is.Type[0]
		}
	}
	switch t {
	case "integer", "number":
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	case "boolean":
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	case "object":
		var v any
		if json.Unmarshal(data, &v) == nil {
			return v
		}
	}
	return s
}
