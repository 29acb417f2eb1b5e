package fromdoc

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"
	"github.com/pb33f/libopenapi-validator/paths"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// findPath finds the path item of a request with libopenapi-validator's matcher (its radix
// tree first), the one that validates it.
func findPath(r *http.Request, d *Document) (*v3.PathItem, []*errors.ValidationError, string) {
	return paths.FindPath(r, d.model, d.opts)
}

// validate checks a request against its operation with libopenapi-validator: path, query,
// header and cookie parameters, the security its operation requires (present, not checked:
// the sandbox holds no secret), and the body of every content type (JSON, form and XML by the
// validator, multipart here). body is the request's body, already read. It returns nil when
// the request is valid, else the problem to answer: 401 for missing credentials, 415 for an
// undocumented content type, 400 for bad parameters or a body that cannot be read, 422 for
// a body that breaks its schema, each wrong field named.
func (d *Document) validate(r *http.Request, o *operation, body []byte) *problem {
	r.Body = io.NopCloser(bytes.NewReader(body))
	errs := d.pathErrors(r, o)
	for _, check := range []func(*http.Request, *v3.PathItem, string) (bool, []*errors.ValidationError){
		d.params.ValidateCookieParamsWithPathItem, d.params.ValidateHeaderParamsWithPathItem,
		d.params.ValidateQueryParamsWithPathItem, d.bodies.ValidateRequestBodyWithPathItem,
	} {
		errs = append(errs, guarded(func() []*errors.ValidationError {
			_, es := check(r, o.item, o.Path)
			return es
		})...)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	errs = slices.DeleteFunc(errs, func(e *errors.ValidationError) bool { return notTheClients(e, r, o) })
	errs = append(errs, d.validateMultipart(r, o, body)...)
	missing := d.checkSecurity(r, o)
	if len(errs) == 0 && len(missing) == 0 {
		return nil
	}
	p := &problem{Status: http.StatusUnprocessableEntity, Errors: missing}
	kinds := map[int]bool{}
	if len(missing) > 0 {
		kinds[http.StatusUnauthorized] = true
	}
	for _, e := range errs {
		status, fields := describe(e, o)
		kinds[status] = true
		for _, f := range fields {
			if !slices.Contains(p.Errors, f) {
				p.Errors = append(p.Errors, f)
			}
		}
	}
	for _, s := range []int{http.StatusUnauthorized, http.StatusUnsupportedMediaType, http.StatusBadRequest, http.StatusUnprocessableEntity} {
		if kinds[s] {
			p.Status = s
			break
		}
	}
	var names []string
	for _, f := range p.Errors {
		names = append(names, f.In+" "+f.Name)
	}
	switch p.Status {
	case http.StatusUnauthorized:
		p.Detail = "The request does not carry the credentials this operation requires: " + strings.Join(names, ", ") + "."
		p.scheme = challenge(d, o)
	case http.StatusUnsupportedMediaType:
		p.Detail = "The request body's Content-Type is not one this operation documents."
	default:
		p.Detail = fmt.Sprintf("The request does not match the operation %s (%s %s): %s.", o.ID, o.Method, o.Path, strings.Join(names, ", "))
	}
	return p
}

// pathErrors validates a request's path parameters, remembering the outcome by path: the
// validator renders the parameters' schemas on every call, which costs a millisecond.
func (d *Document) pathErrors(r *http.Request, o *operation) []*errors.ValidationError {
	key := o.Path + "\x00" + r.URL.Path
	if v, ok := d.pathChecks.Load(key); ok {
		return v.([]*errors.ValidationError)
	}
	errs := guarded(func() []*errors.ValidationError {
		_, errs := d.params.ValidatePathParamsWithPathItem(r, o.item, o.Path)
		return errs
	})
	if d.pathCount.Add(1) > maxPathChecks { // bounded: start again
		d.pathChecks.Clear()
		d.pathCount.Store(0)
	}
	d.pathChecks.Store(key, errs)
	return errs
}

// guarded runs a validator check, taking a panic of the validator (v0.13.0 indexes the match
// of a path segment its own regular expression does not match) as no finding: the request
// is not refused for the validator's fault.
func guarded(check func() []*errors.ValidationError) (errs []*errors.ValidationError) {
	defer func() {
		if p := recover(); p != nil {
			errs = nil
		}
	}()
	return check()
}

// maxPathChecks bounds the remembered path validations.
const maxPathChecks = 16384

// notTheClients reports a validator error that is no fault of the request: a schema the
// validator cannot render or compile; a documented media type with parameters
// (application/json; charset=utf-8), which the validator (v0.13.0) compares without them and
// so never finds; a form value flagged for reserved characters, which a form body carries
// percent-encoded whatever allowReserved says.
func notTheClients(e *errors.ValidationError, r *http.Request, o *operation) bool {
	text := e.Message + " " + e.Reason
	for _, s := range e.SchemaValidationErrors {
		text += " " + s.Reason
	}
	switch {
	case strings.Contains(text, "failed to compile"), strings.Contains(text, "failed schema compilation"),
		strings.Contains(text, "failed schema rendering"), strings.Contains(text, "cannot be rendered"):
		return true
	case e.ValidationSubType == helpers.ReservedValues:
		return true
	case strings.Contains(text, "'allowReserved' set to false"):
		// The validator looks for reserved characters in the decoded value; the request
		// sent them percent-encoded, as allowReserved: false asks.
		return !strings.ContainsAny(r.URL.RawQuery, ":/?#[]@!$'()*,;")
	case e.ValidationSubType == helpers.RequestBodyContentType:
		ct := strings.ReplaceAll(strings.ToLower(r.Header.Get("Content-Type")), " ", "")
		return slices.ContainsFunc(o.bodyTypes(), func(t string) bool { return strings.ReplaceAll(strings.ToLower(t), " ", "") == ct })
	}
	return false
}

// missingProperty finds the property a "missing property" reason names.
var missingProperty = regexp.MustCompile(`missing propert(?:y|ies) '([^']+)'`)

// describe turns one validator error into the status it calls for and the fields it names.
func describe(e *errors.ValidationError, o *operation) (int, []fieldError) {
	switch e.ValidationType {
	case helpers.SecurityValidation:
		name := e.ValidationSubType
		if name == "" {
			name = "credentials"
		}
		return http.StatusUnauthorized, []fieldError{{In: "security", Name: name, Problem: e.Reason, Expected: e.HowToFix}}
	case helpers.ParameterValidation:
		in := e.ValidationSubType
		f := fieldError{In: in, Name: e.ParameterName, Problem: e.Reason, Expected: e.HowToFix}
		if len(e.SchemaValidationErrors) > 0 && e.SchemaValidationErrors[0].Reason != "" {
			f.Problem = e.SchemaValidationErrors[0].Reason
			if f.Problem != e.Reason {
				f.Problem = e.Reason + ": " + f.Problem
			}
		}
		return http.StatusBadRequest, []fieldError{f}
	case helpers.RequestBodyValidation:
		if e.ValidationSubType == helpers.RequestBodyContentType {
			problem := e.Reason
			if strings.Contains(problem, "content type ''") {
				problem = "no Content-Type was sent with the body"
			}
			return http.StatusUnsupportedMediaType, []fieldError{{In: "header", Name: "Content-Type", Problem: problem,
				Expected: "one of " + strings.Join(o.bodyTypes(), ", ")}}
		}
		if strings.Contains(e.Reason, "cannot be decoded") || strings.Contains(e.Reason, "is empty") {
			return http.StatusBadRequest, []fieldError{{In: "body", Name: "$", Problem: e.Reason, Expected: "a body of " + strings.Join(o.bodyTypes(), " or ") + " that matches the operation's schema"}}
		}
		if len(e.SchemaValidationErrors) == 0 {
			return http.StatusUnprocessableEntity, []fieldError{{In: "body", Name: "$", Problem: e.Reason, Expected: e.HowToFix}}
		}
		var fields []fieldError
		for _, s := range e.SchemaValidationErrors {
			name := s.FieldPath
			if name == "" {
				name = "$"
			}
			if m := missingProperty.FindStringSubmatch(s.Reason); m != nil {
				name = strings.TrimSuffix(name, ".") + "." + m[1]
			}
			fields = append(fields, fieldError{In: "body", Name: name, Problem: s.Reason, Expected: expectedOf(s.KeywordLocation)})
		}
		return http.StatusUnprocessableEntity, fields
	}
	return http.StatusBadRequest, []fieldError{{In: "request", Name: e.ValidationSubType, Problem: e.Reason, Expected: e.HowToFix}}
}

// expectedOf words what a schema keyword expects, from its location (/properties/age/minimum).
func expectedOf(keywordLocation string) string {
	if keywordLocation == "" {
		return ""
	}
	kw := keywordLocation[strings.LastIndex(keywordLocation, "/")+1:]
	return "the value the schema's " + kw + " keyword allows (" + keywordLocation + ")"
}

// bodyTypes lists the content types the operation's request body documents.
func (o *operation) bodyTypes() []string {
	var out []string
	if rb := o.model.RequestBody; rb != nil && rb.Content != nil {
		for ct := range rb.Content.FromOldest() {
			out = append(out, ct)
		}
	}
	return out
}

// challenge is the WWW-Authenticate value of a 401: the first scheme the operation accepts.
func challenge(d *Document, o *operation) string {
	for _, name := range o.schemes(d) {
		s := d.model.Components.SecuritySchemes.GetOrZero(name)
		switch {
		case s == nil:
		case strings.EqualFold(s.Type, "http") && s.Scheme != "":
			return strings.ToUpper(s.Scheme[:1]) + s.Scheme[1:] + ` realm="loupe sandbox"`
		case s.Type == "oauth2" || s.Type == "openIdConnect":
			return `Bearer realm="loupe sandbox"`
		}
	}
	return ""
}
