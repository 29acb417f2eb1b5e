package config

import (
	"slices"
	"strings"
)

// Environment overrides, applied over the file. Each API's variables are named after its slug
// in upper case, for example LOUPE_CHAT_KEY; they apply to the built-in APIs and to the APIs
// of your own that the file adds (apis.<slug>.openapi).
//
//	LOUPE_ADDR, LOUPE_PUBLIC_URL                      server.addr, server.public_url
//	LOUPE_ACCESS_MODE, LOUPE_USERS_FILE               server.access.mode, .users_file
//	LOUPE_TRUSTED_HEADER, LOUPE_TRUSTED_PROXIES       server.access.header, .trusted_proxies (comma-separated)
//	LOUPE_CLIENT_ADDRESS_HEADER                       server.access.client_address_header
//	LOUPE_ADMINS                                      server.access.admins (comma-separated)
//	LOUPE_DATA_DIR                                    server.data_dir
//	LOUPE_DATABASE_URL                                server.database
//	LOUPE_SECRET_KEY                                  the secret key itself (server.secret_key is its file)
//	LOUPE_<SLUG>_URL                                  apis.<slug>.base_url
//	LOUPE_<SLUG>_KEY, _KEY_FILE, _KEY_ENV             apis.<slug>.credential.value, .file, .env
//	LOUPE_<SLUG>_SEND                                 apis.<slug>.credential.send
//	LOUPE_<SLUG>_ALLOW                                apis.<slug>.allow (comma-separated)
func applyEnv(c *Config, lookup func(string) (string, bool)) error {
	str := func(name string, dst *string) {
		if v, ok := lookup(name); ok && v != "" {
			*dst = v
		}
	}
	list := func(name string, dst *[]string) {
		if v, ok := lookup(name); ok && v != "" {
			*dst = splitList(v)
		}
	}
	s := &c.Server
	str("LOUPE_ADDR", &s.Addr)
	str("LOUPE_PUBLIC_URL", &s.PublicURL)
	str("LOUPE_ACCESS_MODE", &s.Access.Mode)
	str("LOUPE_USERS_FILE", &s.Access.UsersFile)
	str("LOUPE_TRUSTED_HEADER", &s.Access.Header)
	list("LOUPE_TRUSTED_PROXIES", &s.Access.TrustedProxies)
	str("LOUPE_CLIENT_ADDRESS_HEADER", &s.Access.ClientAddressHeader)
	list("LOUPE_ADMINS", &s.Access.Admins)
	str("LOUPE_DATA_DIR", &s.DataDir)
	str("LOUPE_DATABASE_URL", &s.Database)
	str("LOUPE_SECRET_KEY", &s.SecretKeyValue)
	if c.APIs == nil {
		c.APIs = map[string]*API{}
	}
	slugs := BuiltIn()
	for slug := range c.APIs {
		if !slices.Contains(slugs, slug) {
			slugs = append(slugs, slug)
		}
	}
	for _, slug := range slugs {
		a := c.APIs[slug]
		if a == nil {
			a = &API{}
		}
		p := "LOUPE_" + envName(slug) + "_"
		str(p+"URL", &a.BaseURL)
		str(p+"SEND", &a.Credential.Send)
		list(p+"ALLOW", &a.Allow)
		var value, file, env string
		str(p+"KEY", &value)
		str(p+"KEY_FILE", &file)
		str(p+"KEY_ENV", &env)
		if value != "" || file != "" || env != "" {
			// An environment credential replaces the file's, whatever its source.
			a.Credential.Value, a.Credential.File, a.Credential.Env = value, file, env
		}
		c.APIs[slug] = a
	}
	return nil
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
