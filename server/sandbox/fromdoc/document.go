package fromdoc

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/parameters"
	"github.com/pb33f/libopenapi-validator/radix"
	"github.com/pb33f/libopenapi-validator/requests"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"loupe/server/catalog"
)

// Document is an OpenAPI document read for its sandbox: the model libopenapi builds (requests
// are validated and routed with it, by libopenapi-validator), the same document as plain
// values (schemas are read from it), and its operations.
type Document struct {
	model   *v3.Document
	root    any // the document as plain values
	version float32
	opts    *config.ValidationOptions
	params  parameters.ParameterValidator
	bodies  requests.RequestBodyValidator
	ops     []*operation
	byPlace map[string]*operation // "GET /pets/{id}"
	// bySegments holds the operations by method and number of path segments ("GET 2"), the
	// templates a path can match.
	bySegments map[string][]*operation
	checks     *checker
	base       string // the path of the first server's URL (/v1), without its trailing slash
	cache      answers
	wraps      wrappers
	// madeHeaders holds each response's documented headers, made once (headers).
	madeHeaders sync.Map
	// pathChecks remembers each path's parameter validation (pathErrors); pathCount counts them.
	pathChecks sync.Map
	pathCount  atomic.Int64
}

// Load reads an OpenAPI 3.0 or 3.1 document as the catalog reads a document of your own
// (server/catalog.OpenOwn). file names it in errors.
func Load(file string, data []byte) (*Document, error) {
	doc, model, err := catalog.OpenOwn(file, data)
	if err != nil {
		return nil, err
	}
	return fromModel(doc, model)
}

// FromBuilt reads a document the catalog has already parsed and built as a document of your
// own (server/catalog.LoadOwnDocuments), so that a large document is not parsed twice. The
// sandbox only reads what it is given.
func FromBuilt(b *catalog.Built) (*Document, error) {
	if b == nil || b.Document == nil || b.Model == nil {
		return nil, fmt.Errorf("fromdoc: no document was built")
	}
	return fromModel(b.Document, b.Model)
}

// fromModel builds the Document of a parsed document and its model.
func fromModel(doc libopenapi.Document, model *v3.Document) (*Document, error) {
	d := &Document{model: model, root: plain(doc.GetSpecInfo().RootNode), byPlace: map[string]*operation{}, bySegments: map[string][]*operation{}}
	d.version = 3.1
	if strings.HasPrefix(model.Version, "3.0") {
		d.version = 3.0
	}
	d.opts = config.NewValidationOptions(config.WithPathTree(radix.BuildPathTree(model)), config.WithoutSecurityValidation(),
		config.WithURLEncodedBodyValidation(), config.WithXmlBodyValidation())
	// The parameter and body validators alone, not the whole validator: the sandbox module
	// in the browser carries no response validation it does not use.
	d.params = parameters.NewParameterValidator(model, config.WithExistingOpts(d.opts))
	d.bodies = requests.NewRequestBodyValidator(model, config.WithExistingOpts(d.opts))
	d.checks = newChecker(d.version, d.opts)
	d.base = basePath(model)
	if model.Paths == nil || model.Paths.PathItems == nil {
		return d, nil
	}
	paths := obj(obj(d.root)["paths"])
	ids := map[string]bool{}
	for path, item := range model.Paths.PathItems.FromOldest() {
		rawItem, _, err := deref(d.root, paths[path])
		if err != nil {
			return nil, fmt.Errorf("paths %s: %w", path, err)
		}
		for method, op := range item.GetOperations().FromOldest() {
			method = strings.ToUpper(method)
			rawOp, _, err := deref(d.root, obj(rawItem)[strings.ToLower(method)])
			if err != nil {
				return nil, fmt.Errorf("paths %s %s: %w", path, method, err)
			}
			o := &operation{
				ID: pageID(ids, op.OperationId, method, path), Method: method, Path: path,
				model: op, item: item, raw: obj(rawOp), rawItem: obj(rawItem), re: templateRegexp(path),
			}
			d.ops = append(d.ops, o)
			key := method + " " + strconv.Itoa(strings.Count(strings.TrimRight(path, "/"), "/"))
			d.bySegments[key] = append(d.bySegments[key], o)
			d.byPlace[method+" "+path] = o
		}
	}
	return d, nil
}

// basePath is the path of the document's first server URL: libopenapi-validator takes it off
// a request's path before matching, as a real server of the API would receive it.
func basePath(model *v3.Document) string {
	if len(model.Servers) == 0 || model.Servers[0] == nil {
		return ""
	}
	u := model.Servers[0].URL
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	} else if strings.HasPrefix(u, "//") {
		u = u[2:]
	} else if !strings.HasPrefix(u, "/") {
		return ""
	}
	if i := strings.Index(u, "/"); i >= 0 && !strings.HasPrefix(u, "/") {
		u = u[i:]
	} else if !strings.HasPrefix(u, "/") {
		return ""
	}
	if strings.Contains(u, "{") {
		return "" // a templated server path: the validator matches it as it can
	}
	return strings.TrimRight(u, "/")
}

// Served returns the request as the API's server would receive it: the sandbox is called on
// the document's paths (/pets), a real server under its server URL's path (/v1/pets). A
// request that already has that path is returned as it is.
func (d *Document) Served(r *http.Request) *http.Request {
	if d.base == "" {
		return r
	}
	c := r.Clone(r.Context())
	c.Body = r.Body
	c.URL.Path = d.base + r.URL.Path
	if r.URL.RawPath != "" {
		c.URL.RawPath = d.base + r.URL.RawPath
	}
	return c
}

// find returns the operation a request is for, or the problem to answer: 404 for a path the
// document does not have, 405 (with Allow) for a method it does not document there.
func (d *Document) find(r *http.Request) (*operation, *problem) {
	// The templates are matched first, the most literal one winning: libopenapi-validator's
	// radix tree settles on one template (/render/{templateId}, /{path}/{name}) even when
	// another has the method (/render/{renderId}) or says more (/{dir}/{id}.ks.json), and
	// takes a segment's suffix as part of a parameter (/v2/{name}:close). Its matcher then
	// finds the styles a template cannot say (matrix, label).
	if o := d.match(r); o != nil {
		return o, nil
	}
	item, errs, path := findPath(r, d)
	if item != nil && len(errs) == 0 {
		if o := d.byPlace[r.Method+" "+path]; o != nil {
			return o, nil
		}
	}
	if item == nil {
		return nil, &problem{Status: http.StatusNotFound, Title: "Not Found",
			Detail: fmt.Sprintf("%s is not a path of this API's document", r.URL.Path)}
	}
	if r.Method == http.MethodHead {
		if o := d.byPlace["GET "+path]; o != nil {
			return o, nil
		}
	}
	var allow []string
	for method := range item.GetOperations().FromOldest() {
		allow = append(allow, strings.ToUpper(method))
	}
	return nil, &problem{Status: http.StatusMethodNotAllowed, Title: "Method Not Allowed",
		Detail: fmt.Sprintf("%s %s is not an operation of this API's document; %s allows %s", r.Method, r.URL.Path, path, strings.Join(allow, ", ")),
		allow:  allow}
}

// match finds the operation of a request by its path templates: the one with the request's
// method whose template matches with the most literal characters.
func (d *Document) match(r *http.Request) *operation {
	path := d.docPath(r)
	var best *operation
	bestScore := -1
	for _, o := range d.bySegments[r.Method+" "+strconv.Itoa(strings.Count(strings.TrimRight(path, "/"), "/"))] {
		if o.re.MatchString(path) {
			if score := len(paramToken.ReplaceAllString(o.Path, "")); score > bestScore {
				best, bestScore = o, score
			}
		}
	}
	return best
}

// docPath is a request's path as the document writes it: without the first server URL's path
// (libopenapi-validator's paths.StripRequestPath reads every server URL on every call).
func (d *Document) docPath(r *http.Request) string {
	if d.base != "" {
		if p, ok := strings.CutPrefix(r.URL.Path, d.base); ok && (p == "" || p[0] == '/') {
			return p
		}
	}
	return r.URL.Path
}

// paramToken is a path template's parameter.
var paramToken = regexp.MustCompile(`\{[^}]*\}`)

// templateRegexp matches a path template: each {param} one or more characters other than /.
func templateRegexp(tmpl string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for tmpl != "" {
		i := strings.Index(tmpl, "{")
		j := strings.Index(tmpl, "}")
		if i < 0 || j < i {
			b.WriteString(regexp.QuoteMeta(tmpl))
			break
		}
		b.WriteString(regexp.QuoteMeta(tmpl[:i]) + "[^/]+")
		tmpl = tmpl[j+1:]
	}
	b.WriteString("/?$")
	return regexp.MustCompile(b.String())
}

// operation is one operation of the document.
type operation struct {
	// ID is the operation's page name in the catalog: its operationId, or one made of its
	// method and path (server/catalog's rule for documents of your own).
	ID     string
	Method string
	Path   string // the path template, as the document writes it

	model   *v3.Operation
	item    *v3.PathItem
	re      *regexp.Regexp // its path template, for match
	raw     map[string]any // the operation, as plain values
	rawItem map[string]any // its path item
}

// pageID is the operation's page name: server/catalog's ownID rule (the operationId with
// each character a URL segment cannot hold made a dash, or method-path when it has none),
// numbered when taken.
func pageID(taken map[string]bool, id, method, path string) string {
	var b strings.Builder
	if id == "" {
		b.WriteString(strings.ToLower(method))
		b.WriteByte('-')
		id = strings.Trim(path, "/{}")
	}
	for _, r := range id {
		if strings.ContainsRune("/?#% {}", r) {
			if !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
			continue
		}
		b.WriteRune(r)
	}
	id = strings.TrimRight(b.String(), "-")
	base := id
	for n := 2; taken[id]; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	taken[id] = true
	return id
}

// codes returns the operation's documented response codes in document order, default last.
func (o *operation) codes() []string {
	var out []string
	if o.model.Responses == nil {
		return nil
	}
	if o.model.Responses.Codes != nil {
		for code := range o.model.Responses.Codes.FromOldest() {
			out = append(out, code)
		}
	}
	if o.model.Responses.Default != nil {
		out = append(out, "default")
	}
	return out
}

// successCode is the code a call answers by default: 201 for a POST that documents it, else
// 200, else the first 2xx (or 2XX) documented, else the first code.
func (o *operation) successCode() string {
	codes := o.codes()
	if o.Method == http.MethodPost && slices.Contains(codes, "201") {
		return "201"
	}
	if slices.Contains(codes, "200") {
		return "200"
	}
	for _, c := range codes {
		if strings.HasPrefix(c, "2") {
			return c
		}
	}
	if len(codes) > 0 {
		return codes[0]
	}
	return ""
}

// rawResponse returns the response object of a code, as plain values.
func (o *operation) rawResponse(root any, code string) map[string]any {
	r, _, _ := deref(root, obj(o.raw["responses"])[code])
	return obj(r)
}
