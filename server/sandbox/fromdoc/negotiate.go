package fromdoc

import (
	"hash/fnv"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// preferences are what a client asks of a mock with the Prefer header (RFC 7240), as Prism
// reads it: code=<status> picks a documented response, example=<name> one of its named
// examples, dynamic=true a value made from the schema even where an example exists.
type preferences struct {
	code    string
	example string
	dynamic bool
}

// parsePrefer reads the Prefer headers.
func parsePrefer(h http.Header) preferences {
	var p preferences
	for _, line := range h.Values("Prefer") {
		for _, part := range strings.Split(line, ",") {
			for _, kv := range strings.Split(part, ";") {
				k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
				v = strings.Trim(strings.TrimSpace(v), `"`)
				switch strings.ToLower(strings.TrimSpace(k)) {
				case "code":
					p.code = v
				case "example":
					p.example = v
				case "dynamic":
					p.dynamic = v == "true"
				}
			}
		}
	}
	return p
}

// seedOf is the seed of a request's made values: the same request is answered the same.
func seedOf(r *http.Request, extra ...string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(r.Method))
	h.Write([]byte{0})
	h.Write([]byte(r.URL.Path))
	h.Write([]byte{0})
	q := r.URL.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		h.Write([]byte(k + "=" + strings.Join(q[k], ",") + "&"))
	}
	for _, e := range extra {
		h.Write([]byte{0})
		h.Write([]byte(e))
	}
	return h.Sum64()
}

// negotiate picks the media type to answer from those offered (in the document's order) for
// an Accept header: the acceptable one with the highest quality, JSON first among equals.
// ok is false when none is acceptable.
func negotiate(accept string, offered []string) (string, bool) {
	if len(offered) == 0 {
		return "", true
	}
	if strings.TrimSpace(accept) == "" {
		return preferJSON(offered), true
	}
	best, bestQ := "", 0.0
	for _, o := range preferJSONOrder(offered) {
		q := quality(accept, o)
		if q > bestQ {
			best, bestQ = o, q
		}
	}
	return best, bestQ > 0
}

// quality is the q-value Accept gives a media type (0: not acceptable).
func quality(accept, offered string) float64 {
	ot, _, err := mime.ParseMediaType(offered)
	if err != nil {
		ot = strings.ToLower(offered)
	}
	otype, osub, _ := strings.Cut(ot, "/")
	best, spec := 0.0, -1
	for _, rng := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(rng))
		if err != nil {
			continue
		}
		q := 1.0
		if s, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				q = f
			}
		}
		t, sub, _ := strings.Cut(mt, "/")
		level := -1
		switch {
		case mt == ot:
			level = 2
		case t == otype && sub == "*":
			level = 1
		case mt == "*/*" || mt == "*":
			level = 0
		case t == otype && strings.HasSuffix(osub, "+"+sub): // application/json accepts application/problem+json
			level = 1
		}
		if level > spec {
			best, spec = q, level
		}
	}
	return best
}

// preferJSON returns the first JSON media type offered, else the first.
func preferJSON(offered []string) string { return preferJSONOrder(offered)[0] }

// preferJSONOrder puts the JSON media types first, keeping the document's order otherwise.
func preferJSONOrder(offered []string) []string {
	out := make([]string, 0, len(offered))
	for _, o := range offered {
		if isJSON(o) {
			out = append(out, o)
		}
	}
	for _, o := range offered {
		if !isJSON(o) {
			out = append(out, o)
		}
	}
	return out
}

// isJSON reports whether a media type carries JSON (application/json, application/*+json).
func isJSON(mt string) bool {
	mt = strings.ToLower(mt)
	return strings.Contains(mt, "json")
}
