package fromdoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
)

// requestFor builds a request for an operation the way a client reading the document would:
// each required parameter (and each optional one with an example) from its example, else a
// value made from its schema; the credentials of its first security requirement; a body from
// the first documented media type's example, else made from its schema.
func requestFor(d *Document, o *operation, seed uint64) *http.Request {
	path := o.Path
	q := url.Values{}
	h := http.Header{}
	var cookies []string
	for i, prm := range d.allParams(o) {
		name, in := str(prm, "name"), str(prm, "in")
		required := boolean(prm, "required") || in == "path"
		v, hasExample := paramExample(d, prm)
		if sv, ok := v.(string); ok && hasExample && impliedKind(obj(prm["schema"])) == "object" {
			var m map[string]any // an object's example written as JSON text
			if json.Unmarshal([]byte(sv), &m) == nil {
				v = m
			}
		}
		if !required && !hasExample {
			continue
		}
		if !hasExample {
			g := newGen(d.root, seed+uint64(i), Request, Choices{Examples: true})
			g.path = []string{name}
			var err error
			if v, err = g.value(prm["schema"], o.place("parameters", name)); err != nil {
				v = "x"
			}
		}
		switch in {
		case "path":
			// A client fills a path segment with a word, not a sentence: a space in a path
			// segment makes documents with /a/{x} and /a/{x}.json ambiguous to match.
			path = strings.ReplaceAll(path, "{"+name+"}", url.PathEscape(strings.ReplaceAll(headerText(v), " ", "-")))
		case "query":
			addQuery(q, name, prm, v)
		case "header":
			h.Set(name, headerText(v))
		case "cookie":
			cookies = append(cookies, name+"="+url.QueryEscape(headerText(v)))
		}
	}
	var body []byte
	ct := ""
	if rb := o.model.RequestBody; rb != nil && rb.Content != nil && rb.Content.Len() > 0 {
		ct = preferJSON(o.bodyTypes())
		body, ct = requestBody(d, o, ct, seed)
	}
	u := path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	r := httptest.NewRequest(o.Method, u, bytes.NewReader(body))
	for k, vs := range h {
		r.Header[k] = vs
	}
	if ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	if len(cookies) > 0 {
		r.Header.Add("Cookie", strings.Join(cookies, "; "))
	}
	addCredentials(d, o, r)
	return r
}

// allParams returns an operation's parameters and its path's, as plain values.
func (d *Document) allParams(o *operation) []map[string]any {
	var out []map[string]any
	seen := map[string]bool{}
	for _, list := range [][]any{asList(o.raw["parameters"]), asList(o.rawItem["parameters"])} {
		for _, p := range list {
			pm, _, err := deref(d.root, p)
			m := obj(pm)
			key := str(m, "in") + ":" + str(m, "name")
			if err != nil || m == nil || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, m)
		}
	}
	return out
}

// paramExample returns a parameter's example, example of examples, or its schema's example.
func paramExample(d *Document, prm map[string]any) (any, bool) {
	if ex, ok := prm["example"]; ok && ex != nil {
		return ex, true
	}
	for _, k := range keysOf(obj(prm["examples"])) {
		ex, _, _ := deref(d.root, obj(prm["examples"])[k])
		if v, ok := obj(ex)["value"]; ok && v != nil {
			return v, true
		}
	}
	return nil, false
}

// addQuery serializes a query parameter (style form, explode as the parameter says).
func addQuery(q url.Values, name string, prm map[string]any, v any) {
	explode := true
	if e, ok := prm["explode"].(bool); ok {
		explode = e
	}
	style := str(prm, "style")
	switch t := v.(type) {
	case []any:
		if explode && style != "spaceDelimited" && style != "pipeDelimited" {
			for _, x := range t {
				q.Add(name, scalarText(x))
			}
			return
		}
		sep := map[string]string{"spaceDelimited": " ", "pipeDelimited": "|"}[style]
		if sep == "" {
			sep = ","
		}
		var parts []string
		for _, x := range t {
			parts = append(parts, scalarText(x))
		}
		q.Set(name, strings.Join(parts, sep))
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch {
			case style == "deepObject":
				q.Set(name+"["+k+"]", scalarText(t[k]))
			case explode:
				q.Set(k, scalarText(t[k]))
			default:
				q.Add(name, k+","+scalarText(t[k]))
			}
		}
	default:
		q.Set(name, scalarText(v))
	}
}

// requestBody makes a body of a media type from its example, else its schema.
func requestBody(d *Document, o *operation, ct string, seed uint64) ([]byte, string) {
	raw, at, sp := d.requestSchema(o, ct)
	mt := o.model.RequestBody.Content.GetOrZero(ct)
	var v any
	found := false
	if mt.Examples != nil {
		for _, ex := range mt.Examples.FromOldest() {
			if ex != nil && ex.Value != nil {
				v, found = plain(ex.Value), true
				break
			}
		}
	}
	if !found && mt.Example != nil {
		v, found = plain(mt.Example), true
	}
	if found && isJSON(ct) && d.checks.checkValue(sp, v) != nil {
		found = false
	}
	if !found && raw != nil {
		made, err := d.makeValue(raw, at, sp, seed, Request)
		if err == nil {
			v = made
		}
	}
	if strings.HasPrefix(ct, "multipart/") {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		for _, k := range keysOf(obj(v)) {
			switch t := obj(v)[k].(type) {
			case []any:
				for _, x := range t {
					_ = w.WriteField(k, scalarText(x))
				}
			default:
				_ = w.WriteField(k, scalarText(t))
			}
		}
		_ = w.Close()
		return b.Bytes(), w.FormDataContentType()
	}
	body, _ := encode(ct, v)
	if strings.Contains(ct, "*") {
		ct = "application/octet-stream"
	}
	return body, ct
}

// addCredentials adds a made-up credential for each scheme of the operation's first
// security requirement.
func addCredentials(d *Document, o *operation, r *http.Request) {
	reqs := o.requirements(d)
	if len(reqs) == 0 || reqs[0] == nil || reqs[0].Requirements == nil || d.model.Components == nil || d.model.Components.SecuritySchemes == nil {
		return
	}
	for name := range reqs[0].Requirements.FromOldest() {
		s := d.model.Components.SecuritySchemes.GetOrZero(name)
		if s == nil {
			continue
		}
		switch strings.ToLower(s.Type) {
		case "apikey":
			switch s.In {
			case "header":
				r.Header.Set(s.Name, "test-key")
			case "query":
				q := r.URL.Query()
				q.Set(s.Name, "test-key")
				r.URL.RawQuery = q.Encode()
			case "cookie":
				r.AddCookie(&http.Cookie{Name: s.Name, Value: "test-key"})
			}
		case "http":
			r.Header.Set("Authorization", titleCase(s.Scheme)+" dGVzdDprZXk=")
		case "oauth2", "openidconnect":
			r.Header.Set("Authorization", "Bearer test-token")
		}
	}
	_ = fmt.Sprint
}
