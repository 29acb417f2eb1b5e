package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// validateSchemes checks apis.<slug>.credentials: each a credential with its secret's source,
// sent as its scheme says or as send says (not oauth2, which only credential offers).
func (a *API) validateSchemes(key string) error {
	for _, scheme := range slices.Sorted(maps.Keys(a.Credentials)) {
		cr := a.Credentials[scheme]
		ck := key + ".credentials." + scheme
		if cr == nil {
			return errKey(ck, "expected a mapping of keys such as value, file or env")
		}
		if a.OpenAPI == "" {
			return errKey(ck, "credentials by scheme are for APIs of your own; a built-in API takes %s.credential", key)
		}
		n := 0
		for _, s := range []string{cr.Value, cr.File, cr.Env} {
			if s != "" {
				n++
			}
		}
		switch {
		case n > 1:
			return errKey(ck, "expected one of value, file or env, not %d of them", n)
		case n == 0 && cr.Send != SendNone:
			return errKey(ck, "expected the secret as value, file or env")
		}
		switch cr.Send {
		case "", SendBearer, SendBasic, SendNone:
		case SendHeader:
			if !validToken(cr.Name) || isReserved(cr.Name) {
				return errKey(ck+".name", "expected a header name such as Authorization or X-Api-Key, got %q", cr.Name)
			}
		case SendQuery:
			if cr.Name == "" || strings.ContainsAny(cr.Name, "&=#? ") {
				return errKey(ck+".name", "expected a query parameter name such as key, got %q", cr.Name)
			}
		case SendCookie:
			if !validToken(cr.Name) {
				return errKey(ck+".name", "expected a cookie name such as session_id, got %q", cr.Name)
			}
		default:
			return errKey(ck+".send", "expected bearer, header, basic, query, cookie or none, got %q", cr.Send)
		}
	}
	return nil
}

// resolveSchemes reads the secret of every credential of apis.<slug>.credentials (key).
func (a *API) resolveSchemes(key string, lookup func(string) (string, bool)) error {
	for _, scheme := range slices.Sorted(maps.Keys(a.Credentials)) {
		cr := a.Credentials[scheme]
		ck := key + "." + scheme
		if err := cr.resolve(ck, false, lookup); err != nil {
			return err
		}
		if err := cr.checkSecret(ck); err != nil {
			return err
		}
	}
	return nil
}

// checkSecret refuses a secret its placement cannot send; key names the credential.
func (c *Credential) checkSecret(key string) error {
	if c.Send == SendBasic && c.secret != "" && !strings.Contains(c.secret, ":") {
		return errKey(key, "send: basic expects the secret as user:password")
	}
	if c.Send == SendCookie && strings.ContainsAny(c.secret, "; ,\"\\") {
		return errKey(key, "send: cookie cannot send a secret holding a space, comma, semicolon, quote or backslash")
	}
	return nil
}

// Placed returns a copy of the credential sent as placement says where its own send is unset;
// key names it in errors about a secret that placement cannot send.
func (c *Credential) Placed(send, name, prefix, key string) (Credential, error) {
	p := *c
	if p.Send == "" {
		p.Send, p.Name, p.Prefix = send, name, prefix
	}
	if err := p.checkSecret(key); err != nil {
		return p, fmt.Errorf("%w (as the document's scheme sends it)", err)
	}
	return p, nil
}
