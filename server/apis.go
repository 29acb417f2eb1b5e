package server

import (
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"loupe/app/catalog"
	servercatalog "loupe/server/catalog"
	"loupe/server/config"
	"loupe/server/config/placement"
)

// This file is the one place that says which APIs Loupe serves and how each credential is
// sent: the APIs are the catalog's (the shipped documents, content/openapi, then the documents
// of your own the configuration names under apis.<slug>.openapi), and a credential goes where
// the configuration says (apis.<slug>.credential.send) or else where the API's document says
// (placement).

// ownAPIs lists the APIs of your own the configuration adds, sorted by slug.
func ownAPIs(c *config.Config) []servercatalog.Own {
	docs := c.Documents()
	var out []servercatalog.Own
	for _, slug := range slices.Sorted(maps.Keys(docs)) {
		out = append(out, servercatalog.Own{Slug: slug, Path: docs[slug], Key: "apis." + slug + ".openapi"})
	}
	return out
}

// apiConfig returns the configuration of the catalog's API slug, with the credential placed:
// when apis.<slug>.credential.send is unset, as the API's document says. An API the
// configuration does not mention is a built-in one on its sandbox.
func apiConfig(c *config.Config, api *catalog.API) (*config.API, error) {
	a := c.APIs[api.Slug]
	if a == nil {
		a = &config.API{}
	}
	placed := *a
	cred := &placed.Credential
	key := "apis." + api.Slug + ".credential"
	if cred.Send == "" {
		var err error
		if cred.Send, cred.Name, cred.Prefix, err = placement.Of(api); err != nil {
			if api.Own {
				// Each operation says what it needs (ownSecurity); one that needs a scheme
				// the proxy cannot send is refused with what to configure.
				cred.Send, cred.Name, cred.Prefix = config.SendNone, "", ""
				return &placed, nil
			}
			return nil, fmt.Errorf("%s.send: %w", key, err)
		}
		switch {
		case cred.Send == config.SendCookie && strings.ContainsAny(cred.Secret(), "; ,\"\\"):
			return nil, fmt.Errorf("%s: the document sends the key as cookie %s, whose value cannot hold a space, comma, semicolon, quote or backslash", key, cred.Name)
		case cred.Send == config.SendBasic && cred.Secret() != "" && !strings.Contains(cred.Secret(), ":") && !a.IsSandbox():
			return nil, fmt.Errorf("%s: the document sends HTTP basic authentication, which expects the secret as user:password", key)
		case !a.IsSandbox() && a.BaseURL != "" && cred.Send != config.SendNone && cred.Secret() == "" && len(a.Credentials) == 0:
			return nil, fmt.Errorf("%s: the API at %s is sent a credential (%s, as its document says) but none is given; expected value, file or env (or send: none)",
				key, a.BaseURL, describeSend(cred))
		}
	}
	return &placed, nil
}

// describeSend words a placement for messages: bearer, header X-Api-Key, query key.
func describeSend(c *config.Credential) string {
	switch c.Send {
	case config.SendHeader, config.SendQuery, config.SendCookie:
		return c.Send + " " + c.Name
	}
	return c.Send
}

// docsFS is the content directory with the documents of your own beside the shipped ones,
// as openapi/<slug>.yaml, so /openapi/<slug>.yaml exports them too.
type docsFS struct {
	fs.FS
	docs map[string][]byte
}

// ReadFile implements fs.ReadFileFS.
func (f docsFS) ReadFile(name string) ([]byte, error) {
	if slug, ok := strings.CutPrefix(name, "openapi/"); ok {
		if data, ok := f.docs[strings.TrimSuffix(slug, ".yaml")]; ok && strings.HasSuffix(slug, ".yaml") {
			return data, nil
		}
	}
	return fs.ReadFile(f.FS, name)
}

// unsetAdvice says where to point an API of your own that has no base URL and its sandbox
// turned off: its document's first server, if it names one.
func unsetAdvice(slug string, servers []string) string {
	msg := "apis." + slug + ".sandbox is false, so its calls go nowhere; set apis." + slug + ".base_url (or LOUPE_" + strings.ToUpper(slug) + "_URL) to where its calls should go, or remove sandbox: false to use the sandbox built from its document"
	if len(servers) > 0 && strings.HasPrefix(servers[0], "http") {
		msg += ", such as its document's server " + servers[0]
	}
	return msg
}
