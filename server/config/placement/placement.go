// Package placement says where an API's credential goes on a request (a header, the query, a
// cookie) as the API's OpenAPI document says, and puts it there. It is the part of the
// configuration that the static explorer's modules need (server/sandbox/inpage) without the
// configuration file's parser and defaults (server/config), which would add their code to every
// module.
package placement

import (
	"fmt"
	"strings"

	"loupe/app/catalog"
)

// How a credential is sent: the values of the configuration's credential.send.
const (
	// Bearer sends "Authorization: Bearer <secret>".
	Bearer = "bearer"
	// Header sends "<name>: <prefix><secret>".
	Header = "header"
	// Basic sends "Authorization: Basic base64(<secret>)"; the secret is "user:password".
	Basic = "basic"
	// Query adds the query parameter <name>=<secret>.
	Query = "query"
	// Cookie sends the cookie <name>=<secret>, as an OpenAPI apiKey in: cookie says.
	Cookie = "cookie"
	// None sends nothing.
	None = "none"
)

// Of says how an API's document sends its credential: the first scheme of the first security
// requirement that names one, on the document or on its first operation that has one. No
// requirement means none is sent.
func Of(api *catalog.API) (send, name, prefix string, err error) {
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
		return None, "", "", nil
	}
	for i := range api.Security {
		if api.Security[i].Name == scheme {
			return OfScheme(&api.Security[i])
		}
	}
	return "", "", "", fmt.Errorf("the document names security scheme %q but does not define it; set send (bearer, header, basic, query, cookie or none)", scheme)
}

// OfScheme says how a security scheme's credential is sent, or that the proxy cannot send it
// (an HTTP scheme other than bearer and basic, such as digest or an HMAC signature, which each
// call must compute).
func OfScheme(s *catalog.SecurityScheme) (send, name, prefix string, err error) {
	switch {
	case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
		return Bearer, "", "", nil
	case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
		return Basic, "", "", nil
	case s.Type == "apiKey" && s.In == "header":
		return Header, s.ParamName, s.Prefix, nil
	case s.Type == "apiKey" && s.In == "query":
		return Query, s.ParamName, "", nil
	case s.Type == "apiKey" && s.In == "cookie":
		return Cookie, s.ParamName, "", nil
	case s.Type == "oauth2" || s.Type == "openIdConnect":
		// The access token is sent as a bearer token (RFC 6750).
		return Bearer, "", "", nil
	}
	return "", "", "", fmt.Errorf("the document's security scheme %q (%s %s%s) is not one Loupe's proxy can send; set send (bearer, header, basic, query, cookie or none) with name and prefix",
		s.Name, s.Type, s.In, s.Scheme)
}
