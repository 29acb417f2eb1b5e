package op

import (
	"strings"

	"loupe/app/catalog"
	"loupe/app/request"
)

// FormState is one operation's filled form, without any UI: the values typed, the errors they
// have, and whether missing required fields are flagged yet. The operation page embeds one, and
// the walkthrough runner keeps one per step; both render it with the same field components.
type FormState struct {
	// Op is the operation the form fills; Base is where its requests go ("/proxy/<slug>").
	Op   *catalog.Operation
	Base string

	State       request.State        // the values typed
	Errs        map[string]string    // parameter key -> what is wrong
	BodyErrs    []request.FieldError // what is wrong with the body
	showMissing bool                 // after a Send attempt, missing required fields are flagged too
	reading     string               // the body field whose files are being read, or ""
	fileProblem map[string]string    // body field -> why its chosen file was not taken
}

// newFormState returns op's untouched form, validated, sending to base.
func newFormState(op *catalog.Operation, base string) FormState {
	f := FormState{Op: op, Base: base, State: request.Initial(op)}
	f.Validate()
	return f
}

// Body returns the operation's request body as the form sends it, as its chosen content type
// (request.BodyOf); nil when the operation has none.
func (f *FormState) Body() *catalog.RequestBody { return request.BodyOf(f.Op, f.State) }

// reset puts every field back to its default and stops flagging missing fields.
func (f *FormState) reset() {
	f.State = request.Initial(f.Op)
	f.showMissing = false
	f.Validate()
}

// Validate recomputes the field errors of the current state.
func (f *FormState) Validate() {
	f.Errs = map[string]string{}
	f.BodyErrs = nil
	_, errs := request.Build(f.Op, f.Base, f.State)
	for _, e := range errs {
		if e.Key == request.BodyKey {
			f.BodyErrs = append(f.BodyErrs, e)
			continue
		}
		if _, seen := f.Errs[e.Key]; !seen {
			f.Errs[e.Key] = e.Message
		}
	}
}

// Invalid counts the fields that need fixing.
func (f *FormState) Invalid() int { return len(f.Errs) + len(f.BodyErrs) }

// fieldError returns the error to show next to a field: missing values only after a Send.
func (f *FormState) fieldError(key string) string {
	msg := f.Errs[key]
	if strings.HasPrefix(msg, "missing") && !f.showMissing {
		return ""
	}
	return msg
}

// param returns the operation's parameter of a key (request.Key), or the body's part header
// of a request.PartHeaderKey, or nil.
func (f *FormState) param(key string) *catalog.Parameter {
	for i := range f.Op.Parameters {
		if p := &f.Op.Parameters[i]; request.Key(p) == key {
			return p
		}
	}
	return request.PartHeaderOf(f.Body(), key)
}

// values returns the values of a parameter, at least one.
func (f *FormState) values(key string) []string {
	if vs := f.State.Params[key]; len(vs) > 0 {
		return vs
	}
	return []string{""}
}

// SetValue sets the index-th value of a parameter, adding empty values before it as needed.
func (f *FormState) SetValue(key string, index int, v string) {
	if f.State.Params == nil {
		f.State.Params = map[string][]string{}
	}
	vs := f.State.Params[key]
	for len(vs) <= index {
		vs = append(vs, "")
	}
	vs[index] = v
	f.State.Params[key] = vs
}

// BuildAnyway returns the request the form describes as typed, whatever Loupe's checks say:
// values as they are, a missing path parameter left as its {placeholder}, the body unchecked.
// It is what "Send anyway" sends.
func (f *FormState) BuildAnyway() *request.Request {
	return request.Preview(f.Op, f.Base, f.State)
}

// Build returns the request the form describes. When the form is invalid it returns nil, flags
// missing fields from now on, and names the input to focus: the first wrong field.
func (f *FormState) Build() (req *request.Request, focus string) {
	req, errs := request.Build(f.Op, f.Base, f.State)
	if len(errs) == 0 {
		return req, ""
	}
	f.showMissing = true
	f.Validate()
	if errs[0].Key == request.BodyKey {
		return nil, bodyFocus(f, errs[0])
	}
	return nil, inputID(errs[0].Key, 0)
}

// bodyFocus names the control of the body to focus for its first error: the wrong field of a
// form body, a binary body's file picker, else the body editor.
func bodyFocus(f *FormState, e request.FieldError) string {
	switch f.Body().Kind() {
	case catalog.BodyURLEncoded, catalog.BodyMultipart:
		name := FormErrorField(e.Path)
		for _, fld := range formFieldsOf(f) {
			if fld.Name == name {
				return bodyFieldID(name, 0)
			}
		}
	case catalog.BodyBinary:
		if _, named := request.FileRefName(f.State.Body); named || strings.TrimSpace(f.State.Body) == "" {
			return "body-file"
		}
	}
	return "body-editor"
}
