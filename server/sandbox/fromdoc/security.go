package fromdoc

import (
	"net/http"
	"strings"

	"github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"
	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// requirements returns the security requirements in force for the operation: its own, else
// the document's. An empty requirement ({}) means none is needed.
func (o *operation) requirements(d *Document) []*base.SecurityRequirement {
	if o.model.Security != nil {
		return o.model.Security
	}
	return d.model.Security
}

// schemes lists the names of the security schemes the operation accepts, in order.
func (o *operation) schemes(d *Document) []string {
	var out []string
	for _, req := range o.requirements(d) {
		if req == nil || req.Requirements == nil {
			continue
		}
		for name := range req.Requirements.FromOldest() {
			out = append(out, name)
		}
	}
	return out
}

// validateOAuth checks what libopenapi-validator lets through: an operation whose every way
// in is an OAuth 2.0 or OpenID Connect scheme needs an access token, sent as a bearer token
// (RFC 6750). It returns the error when none is sent.
func (d *Document) validateOAuth(r *http.Request, o *operation) []*errors.ValidationError {
	reqs := o.requirements(d)
	if len(reqs) == 0 || d.model.Components == nil || d.model.Components.SecuritySchemes == nil {
		return nil
	}
	for _, req := range reqs {
		if req == nil || req.Requirements == nil || req.Requirements.Len() == 0 {
			return nil // {}: anonymous access is allowed
		}
		for name := range req.Requirements.FromOldest() {
			s := d.model.Components.SecuritySchemes.GetOrZero(name)
			if s == nil || (s.Type != "oauth2" && s.Type != "openIdConnect") {
				return nil // the validator checks this alternative
			}
		}
	}
	auth := r.Header.Get("Authorization")
	if len(auth) > 7 && strings.EqualFold(auth[:7], "bearer ") {
		return nil
	}
	return []*errors.ValidationError{{
		ValidationType:    helpers.SecurityValidation,
		ValidationSubType: "oauth2",
		Message:           "Authorization header for the OAuth 2.0 access token",
		Reason:            "no access token was sent",
		HowToFix:          "send the access token as 'Authorization: Bearer <token>'",
	}}
}
