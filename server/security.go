package server

import (
	"fmt"
	"net/http"
	"strings"

	"loupe/app/catalog"
	"loupe/server/config"
	"loupe/server/config/placement"
	"loupe/server/proxy"
)

// schemeCred is one security scheme of an API of your own, with its credential placed.
type schemeCred struct {
	scheme *catalog.SecurityScheme
	apply  func(*http.Request)
	// unsendable says why the proxy cannot send the scheme as the document states it (an
	// HTTP scheme such as digest or an HMAC signature); "" when it can.
	unsendable string
	// configured: a credential is given for the scheme.
	configured bool
}

// operationSecurity is how the proxy sends the credentials of an API of your own, per
// operation, as its document's security says.
type operationSecurity struct {
	auth     map[string]proxy.OpAuth
	headers  []string // headers and query parameters that carry a credential
	params   []string
	secrets  []string
	anyGiven bool     // some credential is configured
	held     []string // the schemes a credential is placed for, in the document's order
}

// ownSecurity places the credentials of an API of your own (apis.<slug>.credentials.<scheme>,
// and apis.<slug>.credential for the document's first scheme) and works out, for each
// operation, the first of its security requirements whose every scheme has one: all of them
// are sent at once. An operation with security: [] (or an empty requirement first met) is sent
// nothing; one whose requirements cannot be met is refused with what to configure.
func ownSecurity(api *catalog.API, a *config.API) (*operationSecurity, error) {
	out := &operationSecurity{auth: map[string]proxy.OpAuth{}}
	first := firstScheme(api)
	creds := map[string]*schemeCred{}
	for i := range api.Security {
		s := &api.Security[i]
		key := "apis." + api.Slug + ".credentials." + s.Name
		sc := &schemeCred{scheme: s}
		creds[s.Name] = sc
		cred := a.Credentials[s.Name]
		if cred == nil && s.Name == first && a.Credential.Send == "" && a.Credential.Secret() != "" {
			cred, key = &a.Credential, "apis."+api.Slug+".credential"
		}
		send, name, prefix, perr := placement.OfScheme(s)
		if cred == nil {
			if perr != nil {
				sc.unsendable = describeScheme(s)
			}
			continue
		}
		sc.configured = true
		out.anyGiven = true
		if cred.Send == "" && perr != nil {
			sc.unsendable = describeScheme(s)
			continue
		}
		placed, err := cred.Placed(send, name, prefix, key)
		if err != nil {
			return nil, err
		}
		sc.apply = placed.Apply()
		out.held = append(out.held, s.Name)
		out.secrets = append(out.secrets, placed.Sensitive()...)
		switch placed.Send {
		case config.SendHeader:
			out.headers = append(out.headers, placed.Name)
		case config.SendQuery:
			out.params = append(out.params, placed.Name)
		}
	}
	for _, op := range api.Operations {
		out.auth[op.ID] = opAuth(api.Slug, &op, creds)
	}
	return out, nil
}

// opAuth is how one operation's credentials are sent (see ownSecurity).
func opAuth(slug string, op *catalog.Operation, creds map[string]*schemeCred) proxy.OpAuth {
	if len(op.Security) == 0 {
		return proxy.OpAuth{}
	}
	var alts []string
	var todo []string
	for _, req := range op.Security {
		var applies []func(*http.Request)
		var names []string
		met := true
		for _, ss := range req.Schemes {
			sc := creds[ss.Scheme]
			names = append(names, ss.Scheme)
			switch {
			case sc == nil:
				met = false
			case sc.unsendable != "":
				met = false
				todo = appendNew(todo, fmt.Sprintf("apis.%s.credentials.%s with send (header, with name and prefix) to send a fixed value: Loupe cannot compute %s itself", slug, ss.Scheme, sc.unsendable))
			case !sc.configured:
				met = false
				todo = appendNew(todo, fmt.Sprintf("apis.%s.credentials.%s (value, file or env)", slug, ss.Scheme))
			default:
				applies = append(applies, sc.apply)
			}
		}
		if met {
			return proxy.OpAuth{Apply: together(applies)}
		}
		alts = append(alts, strings.Join(names, " and "))
	}
	return proxy.OpAuth{Missing: fmt.Sprintf("%s %s needs the credentials of %s; set %s",
		op.Method, op.Path, strings.Join(alts, " or "), strings.Join(todo, ", or "))}
}

// together adds every credential of a requirement; nil when there is none.
func together(applies []func(*http.Request)) func(*http.Request) {
	switch len(applies) {
	case 0:
		return nil
	case 1:
		return applies[0]
	}
	return func(r *http.Request) {
		for _, f := range applies {
			f(r)
		}
	}
}

// describeScheme words a scheme for messages: http hmac, apiKey in header X-Key.
func describeScheme(s *catalog.SecurityScheme) string {
	switch s.Type {
	case "http":
		return "the http " + s.Scheme + " scheme " + s.Name
	case "apiKey":
		return "the apiKey " + s.Name + " in " + s.In + " " + s.ParamName
	}
	return "the " + s.Type + " scheme " + s.Name
}

func appendNew(list []string, s string) []string {
	for _, have := range list {
		if have == s {
			return list
		}
	}
	return append(list, s)
}

// firstScheme is placement.Of's scheme: the first scheme of the first requirement of the
// first operation that has one.
func firstScheme(api *catalog.API) string {
	for _, op := range api.Operations {
		for _, req := range op.Security {
			if len(req.Schemes) > 0 {
				return req.Schemes[0].Scheme
			}
		}
	}
	return ""
}
