// Package snippet writes a request as a command to paste into a terminal, and says which
// credential the Loupe proxy adds to it, so that no snippet ever holds one.
package snippet

import (
	"strings"

	"loupe/app/catalog"
	"loupe/app/request"
)

// HeldValue stands for a credential value in previews and snippets.
const HeldValue = "‹held by the server›"

// Credential is one credential the proxy adds to an API's requests.
type Credential struct {
	// In is "header" or "query".
	In string
	// Name is the header or query parameter name.
	Name string
	// Value is how the value is shown: "Bearer ‹held by the server›".
	Value string
}

// String returns the credential as a header line or a query pair.
func (c Credential) String() string {
	if c.In == "query" {
		return c.Name + "=" + c.Value
	}
	return c.Name + ": " + c.Value
}

// Held returns the credentials the proxy adds to op's requests: those of the operation's first
// security requirement, or of the API's first scheme when the operation names none; for an API
// of your own sent per operation (catalog.API.SecurityPerOperation), those of its first
// requirement whose every scheme the server holds, and none when none is met.
func Held(api *catalog.API, op *catalog.Operation) []Credential {
	if api == nil {
		return nil
	}
	var names []string
	switch {
	case api.SecurityPerOperation:
		names = heldRequirement(api, op)
	case op != nil && len(op.Security) > 0:
		for _, s := range op.Security[0].Schemes {
			names = append(names, s.Scheme)
		}
	case len(api.Security) > 0:
		names = []string{api.Security[0].Name}
	}
	var out []Credential
	for _, name := range names {
		for _, s := range api.Security {
			if s.Name != name {
				continue
			}
			switch {
			case s.Type == "apiKey" && s.In == "query":
				out = append(out, Credential{In: "query", Name: s.ParamName, Value: HeldValue})
			case s.Type == "apiKey" && s.In == "cookie":
				out = append(out, Credential{In: "header", Name: "Cookie", Value: s.ParamName + "=" + HeldValue})
			case s.Type == "apiKey":
				out = append(out, Credential{In: "header", Name: s.ParamName, Value: HeldValue})
			case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
				out = append(out, Credential{In: "header", Name: "Authorization", Value: "Basic " + HeldValue})
			default: // http bearer, oauth2, openIdConnect
				out = append(out, Credential{In: "header", Name: "Authorization", Value: "Bearer " + HeldValue})
			}
		}
	}
	return out
}

// Curl returns a curl command sending req to origin ("http://localhost:8080"), one option per
// line, preceded by a comment naming the credentials the proxy adds.
func Curl(origin string, req *request.Request, held []Credential) string {
	var b strings.Builder
	if len(held) > 0 {
		names := make([]string, len(held))
		for i, c := range held {
			names[i] = c.Name
		}
		b.WriteString("# The Loupe proxy adds the credential (" + strings.Join(names, ", ") + "); it never reaches the browser.\n")
	}
	comments(&b, "#", curlNotes(req))
	b.WriteString("curl")
	if streams(req.Body) {
		b.WriteString(" -N") // print each event as it arrives
	}
	if req.Method != "" && req.Method != "GET" {
		b.WriteString(" -X " + req.Method)
	}
	b.WriteString(" " + Quote(origin+req.URL))
	for _, h := range sentHeaders(req) {
		b.WriteString(" \\\n  -H " + Quote(h.Name+": "+h.Value))
	}
	curlBody(&b, req)
	return b.String()
}

// Quote quotes s for a POSIX shell: as is when it holds only safe characters, otherwise in
// single quotes, each ' written as '\”.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("@%_+=:,./-", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// heldRequirement returns the schemes of op's first security requirement whose every scheme
// the server holds (an empty requirement is met by nothing), as the proxy picks them for an
// API of your own; nil when none is met, or op names none.
func heldRequirement(api *catalog.API, op *catalog.Operation) []string {
	if op == nil {
		return nil
	}
	held := map[string]bool{}
	for _, s := range api.HeldSchemes {
		held[s] = true
	}
	for _, req := range op.Security {
		var names []string
		met := true
		for _, s := range req.Schemes {
			met = met && held[s.Scheme]
			names = append(names, s.Scheme)
		}
		if met {
			return names
		}
	}
	return nil
}
