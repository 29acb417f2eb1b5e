package fromdoc

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// answers caches the stateless answers: the same request gets the same answer, made once.
type answers struct {
	mu sync.Mutex
	m  map[string]*answer
}

// maxCached bounds the cache; when full it starts again empty.
const maxCached = 4096

func (c *answers) get(key string) *answer {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[key]
}

func (c *answers) put(key string, a *answer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCached {
		c.m = map[string]*answer{}
	}
	c.m[key] = a
}

// stateless answers an operation from its document alone: the response Prefer: code asks for
// (else its success), in the media type Accept negotiates, with the example Prefer: example
// names (else the first documented one that validates, unless Prefer: dynamic=true), else a
// value made from the schema for this request's seed.
func (d *Document) stateless(o *operation, r *http.Request) (*answer, *problem) {
	pref := parsePrefer(r.Header)
	code, status, p := o.pickCode(pref)
	if p != nil {
		return nil, p
	}
	media, p := o.pickMedia(r, code)
	if p != nil {
		return nil, p
	}
	seed := seedOf(r, code, media, pref.example, strconv.FormatBool(pref.dynamic))
	key := fmt.Sprintf("%s\x00%s\x00%d\x00%s\x00%d", o.Method, o.Path, status, media, seed)
	if a := d.cache.get(key); a != nil {
		return a, nil
	}
	rep := reply{code: code, media: media}
	if !pref.dynamic {
		v, ok, p := d.example(o, code, media, pref.example)
		if p != nil {
			return nil, p
		}
		if ok {
			_, _, sp := d.bodySchema(o, code, media)
			// A named example is answered as asked; the first one only when it validates.
			if pref.example != "" || !isJSON(media) || d.checks.checkValue(sp, v) == nil {
				rep.value, rep.set = v, true
			}
		}
	}
	a, p := d.render(o, status, rep, seed)
	if p != nil {
		return nil, p
	}
	d.cache.put(key, a)
	return a, nil
}

// render makes the answer of a reply: its documented headers, and its body (made from the
// schema when the reply has no value).
func (d *Document) render(o *operation, status int, rep reply, seed uint64) (*answer, *problem) {
	a := &answer{status: status, header: http.Header{}}
	if err := d.headers(o, rep.code, seed, a.header); err != nil {
		return nil, unsatisfiableProblem(o, rep.code, "header", err)
	}
	if rep.media == "" || status == http.StatusNoContent || status == http.StatusNotModified {
		return a, nil
	}
	v := rep.value
	if !rep.set {
		raw, at, sp := d.bodySchema(o, rep.code, rep.media)
		if raw == nil {
			a.header.Set("Content-Type", rep.media)
			return a, nil
		}
		var err error
		if v, err = d.makeValue(raw, at, sp, seed, Response); err != nil {
			return nil, unsatisfiableProblem(o, rep.code, rep.media, err)
		}
	}
	body, err := encode(rep.media, v)
	if err != nil {
		return nil, unsatisfiableProblem(o, rep.code, rep.media, err)
	}
	a.header.Set("Content-Type", rep.media)
	a.body = body
	return a, nil
}

// headers sets the response headers a response documents (Content-Type aside): each from its
// example, else made from its schema, once per operation and code.
func (d *Document) headers(o *operation, code string, _ uint64, h http.Header) error {
	resp := o.response(code)
	if resp == nil || resp.Headers == nil {
		return nil
	}
	key := o.Method + " " + o.Path + " " + code
	if made, ok := d.madeHeaders.Load(key); ok {
		for k, vs := range made.(http.Header) {
			h[k] = vs
		}
		return nil
	}
	made := http.Header{}
	if err := d.makeHeaders(o, code, hashString(key), made); err != nil {
		return err
	}
	d.madeHeaders.Store(key, made)
	for k, vs := range made {
		h[k] = vs
	}
	return nil
}

// makeHeaders makes the documented headers of a response.
func (d *Document) makeHeaders(o *operation, code string, seed uint64, h http.Header) error {
	resp := o.response(code)
	rawHeaders := obj(o.rawResponse(d.root, code)["headers"])
	for name, hd := range resp.Headers.FromOldest() {
		if http.CanonicalHeaderKey(name) == "Content-Type" || hd == nil {
			continue
		}
		var v any
		switch {
		case hd.Example != nil:
			v = plain(hd.Example)
		case hd.Examples != nil && hd.Examples.Len() > 0:
			for _, ex := range hd.Examples.FromOldest() {
				if ex != nil && ex.Value != nil {
					v = plain(ex.Value)
					break
				}
			}
		}
		if v == nil && hd.Schema != nil {
			raw, _, _ := deref(d.root, rawHeaders[name])
			at := o.place("responses", code, "headers", name, "schema")
			var err error
			if v, err = d.makeValue(obj(raw)["schema"], at, hd.Schema, seed^hashString(name), Response); err != nil {
				return err
			}
		}
		if v != nil {
			h.Set(name, strings.Map(func(r rune) rune {
				if r < ' ' || r == 0x7f {
					return ' '
				}
				return r
			}, headerText(v)))
		}
	}
	return nil
}

// headerText writes a header value: a list comma-separated (simple style), an object as
// key,value pairs.
func headerText(v any) string {
	switch t := v.(type) {
	case []any:
		s := ""
		for i, item := range t {
			if i > 0 {
				s += ","
			}
			s += scalarText(item)
		}
		return s
	case map[string]any:
		s := ""
		for i, k := range keysOf(t) {
			if i > 0 {
				s += ","
			}
			s += k + "," + scalarText(t[k])
		}
		return s
	}
	return scalarText(v)
}

// hashString is a small string hash for seeds.
func hashString(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
