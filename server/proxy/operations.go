package proxy

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"loupe/app/catalog"
)

// operations names the documented operation a method and path belong to, from the path keys
// of an API's OpenAPI document (/api/v2/project/{id}/, /v1/scripts/{scriptId}:run, Google's
// /v1/{+name} and /v1/{parent=projects/*}/topics, AWS's /#Action=DescribeInstances).
type operations struct {
	routes []route
	// headers are each operation's header parameters, lower case.
	headers map[string]map[string]bool
}

type route struct {
	id      string
	method  string
	re      *regexp.Regexp // over the path as normalize writes it
	literal int            // literal characters in the template: the more, the more specific
	// lead is the literal text before the template's first variable, as normalize writes it:
	// a path that does not begin with it is not tried against re.
	lead  string
	vars  []routeVar // by capture group, from 1
	fixed *[2]string // a query pair the key fixes (AWS's Action=...)
}

// routeVar is a variable of a route's template.
type routeVar struct {
	// captures: its value may span segments ({+name}, a Google pattern, allowReserved).
	captures bool
	// matrix: its value is written with semicolons (style matrix, {;name}).
	matrix bool
}

// match is the operation a call was matched to, and where in the path its values are.
type match struct {
	id   string
	path string         // the path as normalize wrote it
	re   *regexp.Regexp // the route's expression, which matched path
	vars []routeVar
}

// spans are where each variable's value is in m.path. Matching does without them: the
// expression is run again for them (only a path that needs checkValues asks).
func (m match) spans() [][2]int {
	g := m.re.FindStringSubmatchIndex(m.path)
	out := make([][2]int, len(m.vars))
	for i := range out {
		out[i] = [2]int{g[2*i+2], g[2*i+3]}
	}
	return out
}

// newOperations compiles the API's templates, each also under the path of every server URL
// (a document may put a base path there, such as /admin/reports/v1).
func newOperations(api *catalog.API) *operations {
	o := &operations{headers: map[string]map[string]bool{}}
	if api == nil {
		return o
	}
	prefixes := []string{""}
	for _, s := range api.Servers {
		if u, err := url.Parse(s); err == nil {
			if p := trimSlash(u.Path); p != "" {
				prefixes = append(prefixes, p)
			}
		}
	}
	for i := range api.Operations {
		op := &api.Operations[i]
		for _, p := range op.Parameters {
			if p.In == "header" {
				if o.headers[op.ID] == nil {
					o.headers[op.ID] = map[string]bool{}
				}
				o.headers[op.ID][strings.ToLower(p.Name)] = true
			}
		}
		for _, prefix := range prefixes {
			r := compileRoute(prefix, op)
			o.routes = append(o.routes, r)
		}
	}
	return o
}

// compileRoute turns an operation's path key into an anchored regular expression over the
// normalized path, in which a variable matches one non-empty segment (or, when it captures,
// several) and a trailing slash is optional.
func compileRoute(prefix string, op *catalog.Operation) route {
	key := catalog.ParsePathKey(op.Path)
	r := route{id: op.ID, method: strings.ToUpper(op.Method), fixed: key.Fixed}
	var b strings.Builder
	b.WriteString("^")
	inLead := true
	lit := func(s string) {
		n := normalizeLiteral(s)
		b.WriteString(regexp.QuoteMeta(n))
		r.literal += len(n)
		if inLead {
			r.lead += n
		}
	}
	lit(prefix)
	parts := key.Path
	if n := len(parts); n > 0 && parts[n-1].Var == "" {
		parts = append(parts[:n-1:n-1], catalog.TemplatePart{Literal: trimSlash(parts[n-1].Literal)})
	}
	for _, p := range parts {
		if p.Var == "" {
			lit(p.Literal)
			continue
		}
		inLead = false
		v := routeVar{captures: p.Captures(), matrix: p.Operator == ';'}
		if param := pathParam(op, p.Var); param != nil {
			ser := param.Serialization()
			v.captures = v.captures || ser.Captures
			v.matrix = v.matrix || ser.Style == catalog.StyleMatrix
		}
		switch {
		case p.Pattern != "":
			b.WriteString("(" + googlePattern(p.Pattern) + ")")
		case v.captures:
			b.WriteString("(.+)")
		default:
			b.WriteString("([^/]+)")
		}
		r.vars = append(r.vars, v)
	}
	b.WriteString("/?$")
	r.re = regexp.MustCompile(b.String())
	return r
}

// googlePattern is the regular expression of a Google path template's pattern: * one
// segment, ** any number, anything else literal.
func googlePattern(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		switch s {
		case "*":
			segs[i] = `[^/]+`
		case "**":
			segs[i] = `.+`
		default:
			segs[i] = regexp.QuoteMeta(normalizeLiteral(s))
		}
	}
	return strings.Join(segs, "/")
}

// pathParam returns the operation's path parameter called name, or nil.
func pathParam(op *catalog.Operation, name string) *catalog.Parameter {
	for i := range op.Parameters {
		if p := &op.Parameters[i]; p.In == "path" && p.Name == name {
			return p
		}
	}
	return nil
}

// match returns the operation of method and the raw path (relative to the base URL, whose
// path is basePath) and query. HEAD matches GET operations. Paths are tried as given and
// with the base path in front, since a base URL may or may not include the document's server
// path. A route whose key fixes a pair matches only a call that has it in its query (AWS's
// /#Action=DescribeInstances) or as a header (AWS's /#X-Amz-Target=Service.Action).
func (o *operations) match(method, basePath, rawPath, rawQuery string, header http.Header) (match, bool) {
	if rawPath == "" {
		rawPath = "/"
	}
	var query url.Values
	path := normalize(rawPath)
	if m, ok := o.matchPath(method, path, rawQuery, header, &query); ok || basePath == "" {
		return m, ok
	}
	// The path with the base path in front is made only when the path alone matches nothing.
	return o.matchPath(method, normalizeLiteral(basePath)+path, rawQuery, header, &query)
}

// matchPath is match for one normalized path; query is the call's query once parsed, nil
// before (only a route that fixes a pair needs it).
func (o *operations) matchPath(method, path, rawQuery string, header http.Header, query *url.Values) (match, bool) {
	best, bestLit := -1, -1
	for i := range o.routes {
		r := &o.routes[i]
		if r.method != method && !(method == http.MethodHead && r.method == http.MethodGet) {
			continue
		}
		lit := r.literal
		if r.fixed != nil {
			lit += len(r.fixed[0]) + len(r.fixed[1]) // a fixed pair is more specific
		}
		if lit <= bestLit || !strings.HasPrefix(path, r.lead) {
			continue
		}
		if !r.re.MatchString(path) {
			continue
		}
		if r.fixed != nil {
			if *query == nil {
				*query, _ = url.ParseQuery(rawQuery)
			}
			if query.Get(r.fixed[0]) != r.fixed[1] && header.Get(r.fixed[0]) != r.fixed[1] {
				continue
			}
		}
		best, bestLit = i, lit
	}
	if best < 0 {
		return match{}, false
	}
	r := &o.routes[best]
	return match{id: r.id, path: path, re: r.re, vars: r.vars}, true
}

// checkValues accepts the encoded slashes and the semicolons checkPath left open only inside
// the values of the matched route's variables: an encoded slash in any value whose pieces are
// no dot or empty segments once decoded, a semicolon encoded in any value or written in a
// matrix one.
func checkValues(m match) *refusal {
	spans := m.spans()
	in := func(pos int) (routeVar, [2]int, bool) {
		for i, s := range spans {
			if pos >= s[0] && pos < s[1] {
				return m.vars[i], s, true
			}
		}
		return routeVar{}, [2]int{}, false
	}
	checked := map[[2]int]bool{}
	for i := 0; i < len(m.path); i++ {
		c := m.path[i]
		encSlash := c == '%' && strings.HasPrefix(m.path[i:], "%2F")
		encSemi := c == '%' && strings.HasPrefix(m.path[i:], "%3B")
		if c != ';' && !encSlash && !encSemi {
			continue
		}
		v, span, ok := in(i)
		switch {
		case !ok:
			return bad("the path has an encoded slash or a semicolon outside a documented parameter")
		case c == ';' && !v.matrix:
			return bad("the path has a semicolon in a parameter that is not a matrix parameter")
		case encSlash && !checked[span]:
			checked[span] = true
			value, _ := url.PathUnescape(m.path[span[0]:span[1]])
			for _, piece := range strings.Split(value, "/") {
				for i, sub := range strings.Split(piece, ";") {
					if strings.Trim(sub, ".") == "" && (i == 0 || sub != "") || strings.HasPrefix(sub, "..") {
						return bad("a parameter's value has an empty, . or .. segment once decoded")
					}
				}
			}
		}
	}
	return nil
}

// safeInPath are the bytes normalize decodes: RFC 3986's unreserved characters and the
// sub-delimiters and colon and at-sign a path segment may hold as they are, except ';'.
func safeInPath(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' ||
		strings.IndexByte("-._~!$&'()*+,=:@", b) >= 0
}

// normalize writes a raw path with every percent-escape of a safe byte decoded and every
// other one upper case, so that /v1/entities%3Asearch matches /v1/entities:search and an
// encoded slash stays apart from a real one.
func normalize(raw string) string {
	if !strings.Contains(raw, "%") {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		if raw[i] == '%' && i+2 < len(raw) && isHex(raw[i+1]) && isHex(raw[i+2]) {
			d := unhex(raw[i+1])<<4 | unhex(raw[i+2])
			if safeInPath(d) {
				b.WriteByte(d)
			} else {
				b.WriteString(strings.ToUpper(raw[i : i+3]))
			}
			i += 2
			continue
		}
		b.WriteByte(raw[i])
	}
	return b.String()
}

// normalizeLiteral writes a template's literal text as normalize writes a path: bytes that
// are not safe in a path percent-encoded.
func normalizeLiteral(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if safeInPath(c) || c == '/' || c == '%' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
