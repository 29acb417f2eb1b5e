package config

import (
	"os"
	"regexp"
	"slices"
	"strings"
)

// slugPattern is what a slug may be: it is a URL segment (/<slug>, /proxy/<slug>/...) and part
// of environment variable names (LOUPE_<SLUG>_URL).
var slugPattern = regexp.MustCompile(`^[a-z][a-z0-9]{0,39}$`)

// reservedSlugs are the first path segments Loupe's own routes take.
var reservedSlugs = []string{"walkthroughs", "proxy", "sandbox", "openapi", "healthz", "preview",
	"tools", "web", "login", "logout", "session", "app", "static", "catalog"}

// validateSlug checks an apis.<slug> key: a built-in API, or an API of your own with its
// OpenAPI document, under a slug that fits a URL and does not shadow a route.
func validateSlug(slug string, a *API) error {
	key := "apis." + slug
	builtIn := slices.Contains(BuiltIn(), slug)
	switch {
	case a == nil:
		return errKey(key, "expected a mapping of keys such as base_url and credential")
	case builtIn && a.OpenAPI != "":
		return errKey(key+".openapi", "%s is a built-in API with its own document; add your API under another slug", slug)
	case builtIn:
		return nil
	case a.OpenAPI == "":
		return errKey(key, "unknown API; expected a built-in API (%s), or your own with its OpenAPI document under %s.openapi",
			strings.Join(BuiltIn(), ", "), key)
	case !slugPattern.MatchString(slug):
		return errKey(key, "expected a slug of lower-case letters and digits starting with a letter, such as petstore, got %q", slug)
	case slices.Contains(reservedSlugs, slug):
		return errKey(key, "%q is one of Loupe's own paths; choose another slug", slug)
	}
	st, err := os.Stat(a.OpenAPI)
	switch {
	case err != nil:
		return errKey(key+".openapi", "expected the path of an OpenAPI 3.0 or 3.1 document (YAML or JSON): %v", err)
	case st.IsDir():
		return errKey(key+".openapi", "%s is a folder; expected the path of an OpenAPI 3.0 or 3.1 document (YAML or JSON)", a.OpenAPI)
	}
	return nil
}

// Documents lists the APIs of your own, slug to the path of its OpenAPI document (API.OpenAPI).
func (c *Config) Documents() map[string]string {
	out := map[string]string{}
	for slug, a := range c.APIs {
		if a != nil && a.OpenAPI != "" {
			out[slug] = a.OpenAPI
		}
	}
	return out
}

// envName is the upper-case form of a slug in environment variable names.
func envName(slug string) string { return strings.ToUpper(slug) }
