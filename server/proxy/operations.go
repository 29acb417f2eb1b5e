package proxy

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"loupe/app/catalog"
)

// operations names the documented operation a method and path belong to, from the path
// templates of an API's OpenAPI document (/api/v2/project/{id}/, /v1/scripts/{scriptId}:run).
type operations struct {
	routes []route
}

type route struct {
	id      string
	method  string
	re      *regexp.Regexp
	literal int // literal characters in the template: the more, the more specific
}

// newOperations compiles the API's templates, each also under the path of every server URL
// (a document may put a base path there, such as /admin/reports/v1).
func newOperations(api *catalog.API) *operations {
	o := &operations{}
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
	for _, op := range api.Operations {
		for _, prefix := range prefixes {
			re, lit := compileTemplate(prefix + op.Path)
			o.routes = append(o.routes, route{id: op.ID, method: strings.ToUpper(op.Method), re: re, literal: lit})
		}
	}
	return o
}

var paramRE = regexp.MustCompile(`\{[^{}/]+\}`)

// compileTemplate turns a path template into an anchored regular expression in which a
// {param} matches one non-empty segment and a trailing slash is optional.
func compileTemplate(tmpl string) (*regexp.Regexp, int) {
	tmpl = trimSlash(tmpl)
	var b strings.Builder
	b.WriteString("^")
	lit := 0
	last := 0
	for _, loc := range paramRE.FindAllStringIndex(tmpl, -1) {
		b.WriteString(regexp.QuoteMeta(tmpl[last:loc[0]]))
		lit += loc[0] - last
		b.WriteString(`[^/]+`)
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(tmpl[last:]))
	lit += len(tmpl) - last
	b.WriteString("/?$")
	return regexp.MustCompile(b.String()), lit
}

// match returns the operationId of method and path (relative to the base URL, whose path is
// basePath). HEAD matches GET operations. Paths are tried as given and with the base path in
// front, since a base URL may or may not include the document's server path.
func (o *operations) match(method, basePath, path string) (string, bool) {
	if path == "" {
		path = "/"
	}
	best, bestLit := "", -1
	for _, cand := range []string{path, basePath + path} {
		for _, r := range o.routes {
			if r.method != method && !(method == http.MethodHead && r.method == http.MethodGet) {
				continue
			}
			if r.literal > bestLit && r.re.MatchString(cand) {
				best, bestLit = r.id, r.literal
			}
		}
		if bestLit >= 0 {
			return best, true
		}
	}
	return "", false
}
