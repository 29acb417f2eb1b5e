package fromdoc

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// Security is checked here rather than by libopenapi-validator, which (v0.13.0) reads only an
// operation's own security and so lets through every operation the document's top-level
// security protects. A request is let in when it carries every credential of one of the
// operation's requirements (OR of ANDs); the values are not checked: the sandbox holds no
// secret, as Prism does.

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

// checkSecurity returns the missing credentials of the first requirement the request comes
// closest to meeting, or nil when it meets one.
func (d *Document) checkSecurity(r *http.Request, o *operation) []fieldError {
	reqs := o.requirements(d)
	if len(reqs) == 0 {
		return nil
	}
	var best []fieldError
	for _, req := range reqs {
		if req == nil || req.Requirements == nil || req.Requirements.Len() == 0 {
			return nil // {}: anonymous access is allowed
		}
		var missing []fieldError
		for name := range req.Requirements.FromOldest() {
			var s *v3.SecurityScheme
			if d.model.Components != nil && d.model.Components.SecuritySchemes != nil {
				s = d.model.Components.SecuritySchemes.GetOrZero(name)
			}
			if f := missingCredential(r, name, s); f != nil {
				missing = append(missing, *f)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		if best == nil || len(missing) < len(best) {
			best = missing
		}
	}
	return best
}

// missingCredential checks one scheme's credential: nil when the request carries it.
func missingCredential(r *http.Request, name string, s *v3.SecurityScheme) *fieldError {
	if s == nil {
		return nil // an undefined scheme cannot be checked (the catalog reports it)
	}
	auth := r.Header.Get("Authorization")
	prefixed := func(scheme string) bool {
		return len(auth) > len(scheme)+1 && strings.EqualFold(auth[:len(scheme)+1], scheme+" ") && strings.TrimSpace(auth[len(scheme)+1:]) != ""
	}
	switch strings.ToLower(s.Type) {
	case "apikey":
		var present bool
		switch s.In {
		case "header":
			present = r.Header.Get(s.Name) != ""
		case "query":
			present = r.URL.Query().Get(s.Name) != ""
		case "cookie":
			c, err := r.Cookie(s.Name)
			present = err == nil && c.Value != ""
		}
		if !present {
			return &fieldError{In: s.In, Name: s.Name, Problem: "missing", Expected: fmt.Sprintf("the API key of security scheme %s in the %s %s", name, s.In, s.Name)}
		}
	case "http":
		if !prefixed(s.Scheme) {
			return &fieldError{In: "header", Name: "Authorization", Problem: describeAuth(auth),
				Expected: fmt.Sprintf("Authorization: %s <credentials> (security scheme %s)", titleCase(s.Scheme), name)}
		}
	case "oauth2", "openidconnect":
		if !prefixed("Bearer") {
			return &fieldError{In: "header", Name: "Authorization", Problem: describeAuth(auth),
				Expected: fmt.Sprintf("Authorization: Bearer <access token> (security scheme %s, %s)", name, s.Type)}
		}
	}
	return nil
}

// describeAuth says what is wrong with an Authorization header.
func describeAuth(auth string) string {
	if auth == "" {
		return "missing"
	}
	scheme, _, _ := strings.Cut(auth, " ")
	return "sent with the scheme " + scheme
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
