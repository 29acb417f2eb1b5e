package entities

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Limits of the limit parameter.
const (
	DefaultLimit = 20
	MaxLimit     = 500
)

// parseQuery reads the entities:search parameters. Repeated parameters
// (ids, types, languages) may also carry comma-separated values.
func parseQuery(v url.Values) (*query, *apiError) {
	q := &query{text: v.Get("query"), limit: DefaultLimit}
	for _, id := range splitValues(v["ids"]) {
		q.ids = appendUnique(q.ids, normalizeID(id))
	}
	for _, t := range splitValues(v["types"]) {
		q.types = append(q.types, strings.ToLower(strings.TrimPrefix(t, "http://schema.org/")))
	}
	for _, l := range splitValues(v["languages"]) {
		q.languages = appendUnique(q.languages, strings.ToLower(l))
	}
	if len(q.languages) == 0 {
		q.languages = []string{"en"}
	}
	if s := v.Get("limit"); s != "" {
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return nil, invalidArgument("limit", fmt.Sprintf("Invalid value at 'limit' (TYPE_INT32), %q", s))
		}
		if n < 1 || n > MaxLimit {
			return nil, invalidArgument("limit", fmt.Sprintf("Invalid value at 'limit': %d. The limit must be between 1 and %d.", n, MaxLimit))
		}
		q.limit = int(n)
	}
	var e *apiError
	if q.prefix, e = parseBool(v, "prefix"); e != nil {
		return nil, e
	}
	if q.indent, e = parseBool(v, "indent"); e != nil {
		return nil, e
	}
	pretty, e := parseBool(v, "prettyPrint")
	if e != nil {
		return nil, e
	}
	q.indent = q.indent || pretty
	return q, nil
}

func parseBool(v url.Values, name string) (bool, *apiError) {
	s := v.Get(name)
	if s == "" {
		return false, nil
	}
	switch strings.ToLower(s) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, invalidArgument(name, fmt.Sprintf("Invalid value at '%s' (TYPE_BOOL), %q", name, s))
}

// normalizeID accepts "kg:/m/0dl567", "/m/0dl567" and "m/0dl567".
func normalizeID(id string) string {
	id = strings.TrimPrefix(strings.TrimSpace(id), "kg:")
	id = strings.TrimPrefix(id, "http://g.co/kg")
	if !strings.HasPrefix(id, "/") {
		id = "/" + id
	}
	return id
}

func splitValues(vs []string) []string {
	var out []string
	for _, v := range vs {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func appendUnique(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}
