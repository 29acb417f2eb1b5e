package snippet

import (
	"net/url"
	"strings"

	"loupe/app/catalog"
	"loupe/app/request"
)

// Kind is a language or client library a snippet can be written for.
type Kind struct {
	// ID names the kind in the page and in tests: curl, httpie, go, js, python, and for an
	// API with an official client, its client's id (openai-python, google-node …).
	ID string
	// Label is the tab's text.
	Label string
}

// The kinds every request has.
var plainKinds = []Kind{
	{"curl", "curl"}, {"httpie", "HTTPie"}, {"go", "Go"}, {"js", "JavaScript"}, {"python", "Python"},
}

// googleAPI names an API's Google client: its discovery name and version, and its npm package.
type googleAPI struct{ name, version, npm string }

// googleAPIs are the APIs the Google API clients call, by slug.
var googleAPIs = map[string]googleAPI{
	"script":   {"script", "v1", "@googleapis/script"},
	"entities": {"kgsearch", "v1", "@googleapis/kgsearch"},
	"reports":  {"admin", "reports_v1", "@googleapis/admin"},
}

// Kinds returns the snippet kinds of op: the plain ones, then the official clients of its API
// (openai for the chat completions, the Google API clients, the OpenSearch clients).
func Kinds(slug string, op *catalog.Operation) []Kind {
	kinds := append([]Kind(nil), plainKinds...)
	switch {
	case slug == "chat" && op != nil && op.Path == "/v1/chat/completions":
		kinds = append(kinds, Kind{"openai-python", "Python · openai"}, Kind{"openai-node", "Node · openai"})
	case googleAPIs[slug].name != "":
		kinds = append(kinds, Kind{"google-python", "Python · Google client"}, Kind{"google-node", "Node · googleapis"})
	case slug == "cluster":
		kinds = append(kinds, Kind{"opensearch-python", "Python · opensearch-py"}, Kind{"opensearch-node", "Node · opensearch-js"})
	}
	return kinds
}

// Write returns the snippet of kind id for req, sent to t. An unknown id gives the curl command.
func Write(id string, t Target, op *catalog.Operation, req *request.Request) string {
	switch id {
	case "httpie":
		return HTTPie(t, req)
	case "go":
		return Go(t, req)
	case "js":
		return JavaScript(t, req)
	case "python":
		return Python(t, req)
	case "openai-python":
		return OpenAIPython(t, req)
	case "openai-node":
		return OpenAINode(t, req)
	case "google-python":
		return GooglePython(t, op, req)
	case "google-node":
		return GoogleNode(t, op, req)
	case "opensearch-python":
		return OpenSearchPython(t, req)
	case "opensearch-node":
		return OpenSearchNode(t, req)
	}
	if t.Proxy != "" {
		return Curl(t.Proxy, req, t.Held)
	}
	return CurlDirect(t.Direct, req, t.Held)
}

// pathParams returns the path parameters of path (escaped, as in request.Request.Path) read
// against template (/v1/projects/{scriptId}/content), unescaped.
func pathParams(template, path string) map[string]string {
	out := map[string]string{}
	ts, ps := strings.Split(template, "/"), strings.Split(path, "/")
	if len(ts) != len(ps) {
		return out
	}
	for i, seg := range ts {
		open, end := strings.IndexByte(seg, '{'), strings.IndexByte(seg, '}')
		if open < 0 || end < open {
			continue
		}
		prefix, suffix := seg[:open], seg[end+1:]
		v := ps[i]
		if !strings.HasPrefix(v, prefix) || !strings.HasSuffix(v, suffix) || len(v) < len(prefix)+len(suffix) {
			continue
		}
		v = v[len(prefix) : len(v)-len(suffix)]
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		out[strings.TrimPrefix(seg[open+1:end], "+")] = v
	}
	return out
}

// param is one named argument of a client call: a string, or a list when repeated.
type param struct {
	name   string
	values []string
	list   bool
}

// callParams returns the path and query parameters of req as a client library takes them, in
// the operation's order: a query parameter sent more than once is a list.
func callParams(op *catalog.Operation, req *request.Request) []param {
	var out []param
	if op == nil {
		return out
	}
	path := pathParams(op.Path, req.Path)
	for _, p := range op.Parameters {
		if p.In == "path" {
			if v, ok := path[p.Name]; ok {
				out = append(out, param{name: p.Name, values: []string{v}})
			}
		}
	}
	index := map[string]int{}
	for _, q := range req.Query {
		if i, ok := index[q.Name]; ok {
			out[i].values = append(out[i].values, q.Value)
			out[i].list = true
			continue
		}
		index[q.Name] = len(out)
		out = append(out, param{name: q.Name, values: []string{q.Value}})
	}
	return out
}

// literal writes p's value as a JavaScript or Python literal.
func (p param) literal() string {
	if !p.list {
		return str(p.values[0])
	}
	items := make([]string, len(p.values))
	for i, v := range p.values {
		items[i] = str(v)
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// extraHeaders returns the request's headers but its Content-Type, which a client library sets
// itself from the body.
func extraHeaders(req *request.Request) [][2]string {
	var out [][2]string
	for _, h := range req.Headers {
		if !strings.EqualFold(h.Name, "Content-Type") {
			out = append(out, [2]string{h.Name, h.Value})
		}
	}
	return out
}
