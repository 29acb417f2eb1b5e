package drf

import (
	"net/http"
	"net/url"
	"strings"
)

// AbsoluteURL is the URL the client used, like Django's
// request.build_absolute_uri(): scheme://host + the external path + the raw
// query. The scheme, host and mount prefix come from X-Forwarded-Proto,
// X-Forwarded-Host and X-Forwarded-Prefix when the request has them (the
// Loupe proxy sets all three), otherwise from the request itself. prefix is the
// mount point to assume when the request does not reveal it (see mountPrefix).
func AbsoluteURL(r *http.Request, prefix string) *url.URL {
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
	prefix = mountPrefix(r, prefix)
	if v, ok := r.Header["X-Forwarded-Prefix"]; ok && len(v) > 0 {
		prefix = strings.TrimRight(firstOf(v[0]), "/")
	}
	return &url.URL{Scheme: scheme, Host: host, Path: prefix + r.URL.Path, RawQuery: r.URL.RawQuery}
}

// mountPrefix is the part of the path the Mux stripped: http.StripPrefix
// shortens r.URL.Path but keeps r.RequestURI, so the difference is the mount
// point. Requests without a usable RequestURI (built in code) get def.
func mountPrefix(r *http.Request, def string) string {
	if r.RequestURI == "" {
		return def
	}
	u, err := url.ParseRequestURI(r.RequestURI)
	if err != nil || !strings.HasSuffix(u.Path, r.URL.Path) {
		return def
	}
	return strings.TrimSuffix(u.Path, r.URL.Path)
}

// firstOf returns the first entry of a comma-separated header value, trimmed.
func firstOf(v string) string {
	first, _, _ := strings.Cut(v, ",")
	return strings.TrimSpace(first)
}

// ReplaceQueryParam is DRF's replace_query_param: it sets key to val in the
// URL's query, dropping its other values, and re-encodes the query with the
// keys sorted.
func ReplaceQueryParam(u *url.URL, key, val string) string {
	q := ParseQuery(u.RawQuery)
	q.Set(key, val)
	return withQuery(u, q)
}

// RemoveQueryParam is DRF's remove_query_param: ReplaceQueryParam that drops
// key altogether.
func RemoveQueryParam(u *url.URL, key string) string {
	q := ParseQuery(u.RawQuery)
	q.Del(key)
	return withQuery(u, q)
}

// ParseQuery parses a query like Python's parse_qs(keep_blank_values=True):
// pairs that do not decode are skipped, the rest are kept.
func ParseQuery(raw string) url.Values {
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

// LastValue is Django's QueryDict.get: the last value of key, and whether the
// key is present at all.
func LastValue(q url.Values, key string) (string, bool) {
	v, ok := q[key]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

// ReplaceQueryParamURL is ReplaceQueryParam returning a URL, for chaining.
func ReplaceQueryParamURL(u *url.URL, key, val string) *url.URL {
	c := *u
	q := ParseQuery(u.RawQuery)
	q.Set(key, val)
	c.RawQuery = q.Encode()
	return &c
}
