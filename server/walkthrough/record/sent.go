package record

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// Sent reads a request as it was sent, its method, URL and headers, into the parameters of
// its operation: the path's values by the operation's path template (path, such as
// /v1/projects/{scriptId}, after base, such as /proxy/script), the query's, and the headers
// named in headers (the operation's documented ones; a credential is never among them, the
// proxy adds it).
func Sent(path, base, rawURL string, headers map[string]string) ([]Param, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("the URL %q: %w", rawURL, err)
	}
	if b, err := url.Parse(base); err == nil {
		base = b.EscapedPath() // /proxy/script, from http://host/proxy/script too
	}
	rest := strings.TrimPrefix(u.EscapedPath(), strings.TrimSuffix(base, "/"))
	var out []Param
	tmpl := strings.Split(strings.Trim(path, "/"), "/")
	got := strings.Split(strings.Trim(rest, "/"), "/")
	if len(tmpl) != len(got) {
		return nil, fmt.Errorf("the URL %q does not follow the path %s", rawURL, path)
	}
	for i, seg := range tmpl {
		open := strings.IndexByte(seg, '{')
		close := strings.IndexByte(seg, '}')
		if open < 0 || close < open {
			continue
		}
		prefix, suffix := seg[:open], seg[close+1:]
		v := strings.TrimSuffix(strings.TrimPrefix(got[i], prefix), suffix)
		un, err := url.PathUnescape(v)
		if err != nil {
			return nil, fmt.Errorf("path parameter %s: %w", seg[open+1:close], err)
		}
		out = append(out, Param{Name: seg[open+1 : close], In: "path", Values: []string{un}})
	}
	q := u.Query()
	var names []string
	for _, kv := range strings.Split(u.RawQuery, "&") { // in the order sent
		name, _, _ := strings.Cut(kv, "=")
		if n, err := url.QueryUnescape(name); err == nil && n != "" && !contains(names, n) {
			names = append(names, n)
		}
	}
	for _, n := range names {
		out = append(out, Param{Name: n, In: "query", Values: q[n]})
	}
	hs := make([]string, 0, len(headers))
	for name := range headers {
		hs = append(hs, name)
	}
	sort.Strings(hs)
	for _, name := range hs {
		out = append(out, Param{Name: name, In: "header", Values: []string{headers[name]}})
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
