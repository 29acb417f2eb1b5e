package docs

import (
	"net/http"
	"net/url"
	"strings"
)

// absoluteURL is the URL the client used, like Django's
// request.build_absolute_uri(): scheme://host + the external path + the raw
// query. The scheme, host and mount prefix come from X-Forwarded-Proto,
// X-Forwarded-Host and X-Forwarded-Prefix when the request has them (the
// Loupe proxy sets all three), otherwise from the request itself.
func (h *handler) absoluteURL(r *http.Request) *url.URL {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if v := firstOf(r.Header.Get("X-Forwarded-Proto")); v != "" {
		scheme = strings.ToLower(v)
	}
	host := r.Host
	if v := firstOf(r.Header.Get("X-Forwarded-Host")); v != "" {
		host = v
	}
	prefix := h.mountPrefix(r)
	if v, ok := r.Header["X-Forwarded-Prefix"]; ok && len(v) > 0 {
		prefix = strings.TrimRight(firstOf(v[0]), "/")
	}
	return &url.URL{Scheme: scheme, Host: host, Path: prefix + r.URL.Path, RawQuery: r.URL.RawQuery}
}

// mountPrefix is the part of the path the Mux stripped: http.StripPrefix
// shortens r.URL.Path but keeps r.RequestURI, so the difference is the mount
// point. Requests without a usable RequestURI (built in code) get h.prefix.
func (h *handler) mountPrefix(r *http.Request) string {
	if r.RequestURI == "" {
		return h.prefix
	}
	u, err := url.ParseRequestURI(r.RequestURI)
	if err != nil || !strings.HasSuffix(u.Path, r.URL.Path) {
		return h.prefix
	}
	return strings.TrimSuffix(u.Path, r.URL.Path)
}

// firstOf returns the first entry of a comma-separated header value, trimmed.
func firstOf(v string) string {
	first, _, _ := strings.Cut(v, ",")
	return strings.TrimSpace(first)
}

// replaceQueryParam is DRF's replace_query_param: it sets key to val in the
// URL's query, dropping its other values, and re-encodes the query with the
// keys sorted.
func replaceQueryParam(u *url.URL, key, val string) string {
	q := parseQuery(u.RawQuery)
	q.Set(key, val)
	return withQuery(u, q)
}

// removeQueryParam is DRF's remove_query_param: replaceQueryParam that drops
// key altogether.
func removeQueryParam(u *url.URL, key string) string {
	q := parseQuery(u.RawQuery)
	q.Del(key)
	return withQuery(u, q)
}

// parseQuery parses a query like Python's parse_qs(keep_blank_values=True):
// pairs that do not decode are skipped, the rest are kept.
func parseQuery(raw string) url.Values {
	q, _ := url.ParseQuery(raw) // parse errors only drop the faulty pairs
	if q == nil {
		q = url.Values{}
	}
	return q
}

// withQuery returns u as a string with its query replaced by q, sorted by key.
func withQuery(u *url.URL, q url.Values) string {
	c := *u
	c.RawQuery = q.Encode()
	c.ForceQuery = false
	return c.String()
}

// lastValue is Django's QueryDict.get: the last value of key, and whether the
// key is present at all.
func lastValue(q url.Values, key string) (string, bool) {
	v, ok := q[key]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

// replaceQueryParamURL is replaceQueryParam returning a URL, for chaining.
func replaceQueryParamURL(u *url.URL, key, val string) *url.URL {
	c := *u
	q := parseQuery(u.RawQuery)
	q.Set(key, val)
	c.RawQuery = q.Encode()
	return &c
}
