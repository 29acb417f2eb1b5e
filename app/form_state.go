package app

import (
	"strings"

	"loupe/app/catalog"
	"loupe/app/request"
)

// formState is one operation's filled form, without any UI: the values typed, the errors they
// have, and whether missing required fields are flagged yet. The operation page embeds one, and
// the walkthrough runner keeps one per step; both render it with the same field components.
type formState struct {
	// Op is the operation the form fills; base is where its requests go ("/proxy/<slug>").
	Op   *catalog.Operation
	base string

	st          request.State
	errs        map[string]string // parameter key -> what is wrong
	bodyErrs    []request.FieldError
	showMissing bool // after a Send attempt, missing required fields are flagged too
}

// newFormState returns op's untouched form, validated, sending to base.
func newFormState(op *catalog.Operation, base string) formState {
	f := formState{Op: op, base: base, st: request.Initial(op)}
	f.validate()
	return f
}

// reset puts every field back to its default and stops flagging missing fields.
func (f *formState) reset() {
	f.st = request.Initial(f.Op)
	f.showMissing = false
	f.validate()
}

// validate recomputes the field errors of the current state.
func (f *formState) validate() {
	f.errs = map[string]string{}
	f.bodyErrs = nil
	_, errs := request.Build(f.Op, f.base, f.st)
	for _, e := range errs {
		if e.Key == request.BodyKey {
			f.bodyErrs = append(f.bodyErrs, e)
			continue
		}
		if _, seen := f.errs[e.Key]; !seen {
			f.errs[e.Key] = e.Message
		}
	}
}

// invalid counts the fields that need fixing.
func (f *formState) invalid() int { return len(f.errs) + len(f.bodyErrs) }

// fieldError returns the error to show next to a field: missing values only after a Send.
func (f *formState) fieldError(key string) string {
	msg := f.errs[key]
	if strings.HasPrefix(msg, "missing") && !f.showMissing {
		return ""
	}
	return msg
}

// values returns the values of a parameter, at least one.
func (f *formState) values(key string) []string {
	if vs := f.st.Params[key]; len(vs) > 0 {
		return vs
	}
	return []string{""}
}

// setValue sets the index-th value of a parameter, adding empty values before it as needed.
func (f *formState) setValue(key string, index int, v string) {
	if f.st.Params == nil {
		f.st.Params = map[string][]string{}
	}
	vs := f.st.Params[key]
	for len(vs) <= index {
		vs = append(vs, "")
	}
	vs[index] = v
	f.st.Params[key] = vs
}

// build returns the request the form describes. When the form is invalid it returns nil, flags
// missing fields from now on, and names the input to focus: the first wrong field.
func (f *formState) build() (req *request.Request, focus string) {
	req, errs := request.Build(f.Op, f.base, f.st)
	if len(errs) == 0 {
		return req, ""
	}
	f.showMissing = true
	f.validate()
	if errs[0].Key == request.BodyKey {
		return nil, "body-editor"
	}
	return nil, inputID(errs[0].Key, 0)
}
