package config

import (
	"fmt"
	"strings"

	"loupe/app/catalog"
)

// Placement says how an API's document sends its credential: the first scheme of the first
// security requirement that names one, on the document or on its first operation that has
// one. No requirement means none is sent.
func Placement(api *catalog.API) (send, name, prefix string, err error) {
	var scheme string
	for _, op := range api.Operations {
		for _, req := range op.Security {
			if len(req.Schemes) > 0 {
				scheme = req.Schemes[0].Scheme
				break
			}
		}
		if scheme != "" {
			break
		}
	}
	if scheme == "" {
		return SendNone, "", "", nil
	}
	for i := range api.Security {
		if api.Security[i].Name == scheme {
			return SchemePlacement(&api.Security[i])
		}
	}
	return "", "", "", fmt.Errorf("the document names security scheme %q but does not define it; set send (bearer, header, basic, query, cookie or none)", scheme)
}

// SchemePlacement says how a security scheme's credential is sent, or that the proxy cannot
// send it (an HTTP scheme other than bearer and basic, such as digest or an HMAC signature,
// which each call must compute).
func SchemePlacement(s *catalog.SecurityScheme) (send, name, prefix string, err error) {
	switch {
	case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
		return SendBearer, "", "", nil
	case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
		return SendBasic, "", "", nil
	case s.Type == "apiKey" && s.In == "header":
		return SendHeader, s.ParamName, s.Prefix, nil
	case s.Type == "apiKey" && s.In == "query":
		return SendQuery, s.ParamName, "", nil
	case s.Type == "apiKey" && s.In == "cookie":
		return SendCookie, s.ParamName, "", nil
	case s.Type == "oauth2" || s.Type == "openIdConnect":
		// The access token is sent as a bearer token (RFC 6750).
		return SendBearer, "", "", nil
	}
	return "", "", "", fmt.Errorf("the document's security scheme %q (%s %s%s) is not one Loupe's proxy can send; set send (bearer, header, basic, query, cookie or none) with name and prefix",
		s.Name, s.Type, s.In, s.Scheme)
}
