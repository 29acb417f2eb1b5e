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
	// File is the name the snippet suggests saving it under; its extension is what its
	// runner needs (.mjs: an ES module for any Node.js from 18, whatever package.json says).
	File string
	// Run is the command that runs the saved file, as is.
	Run string
	// Needs is the command that installs what the snippet imports, or "".
	Needs string
}

// HowTo is the snippet's first line (without the comment mark): where to save it and how to
// run it.
func (k Kind) HowTo() string {
	s := "Save as " + k.File + ", then run: " + k.Run
	if k.Needs != "" {
		s += " (needs: " + k.Needs + ")"
	}
	return s
}

// The kinds every request has.
var plainKinds = []Kind{
	{ID: "curl", Label: "curl", File: "request.sh", Run: "sh request.sh"},
	{ID: "httpie", Label: "HTTPie", File: "request.sh", Run: "sh request.sh"},
	{ID: "go", Label: "Go", File: "main.go", Run: "go run main.go"},
	{ID: "js", Label: "JavaScript", File: "request.mjs", Run: "node request.mjs"},
	{ID: "python", Label: "Python", File: "request.py", Run: "python3 request.py", Needs: "pip install requests"},
}

// Node and Python client kinds.
func nodeKind(id, label, pkg string) Kind {
	return Kind{ID: id, Label: label, File: "request.mjs", Run: "node request.mjs", Needs: "npm install " + pkg}
}

func pythonKind(id, label, pkg string) Kind {
	return Kind{ID: id, Label: label, File: "request.py", Run: "python3 request.py", Needs: "pip install " + pkg}
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
		kinds = append(kinds, pythonKind("openai-python", "Python · openai", "openai"), nodeKind("openai-node", "Node · openai", "openai"))
	case googleAPIs[slug].name != "":
		kinds = append(kinds, pythonKind("google-python", "Python · Google client", "google-api-python-client"),
			nodeKind("google-node", "Node · googleapis", googleAPIs[slug].npm))
	case slug == "cluster":
		kinds = append(kinds, pythonKind("opensearch-python", "Python · opensearch-py", "opensearch-py"),
			nodeKind("opensearch-node", "Node · opensearch-js", "@opensearch-project/opensearch"))
	}
	return kinds
}

// Write returns the snippet of kind id for req, sent to t, its first line saying how to save
// and run it (Kind.HowTo). An unknown id gives the curl command.
func Write(id string, t Target, op *catalog.Operation, req *request.Request) string {
	slug := t.Direct.Slug
	for _, k := range Kinds(slug, op) {
		if k.ID == id {
			mark := "#"
			if k.File == "request.mjs" || k.File == "main.go" {
				mark = "//"
			}
			return mark + " " + k.HowTo() + "\n" + write(id, t, op, req)
		}
	}
	return write("curl", t, op, req)
}

// write returns the snippet of kind id, without its how-to line.
func write(id string, t Target, op *catalog.Operation, req *request.Request) string {
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
