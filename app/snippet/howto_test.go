package snippet

import (
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/request"
)

// TestHowTo: every snippet's first line names the file to save it as and the command to run it,
// and a JavaScript one is always an .mjs file (it awaits at the top level, which Node.js runs
// only in an ES module).
func TestHowTo(t *testing.T) {
	op := &catalog.Operation{ID: "createChatCompletion", Path: "/v1/chat/completions"}
	req := &request.Request{Method: "GET", URL: "/proxy/chat/v1/chat/completions", Path: "/v1/chat/completions"}
	want := map[string]string{
		"curl":              "# Save as request.sh, then run: sh request.sh\n",
		"httpie":            "# Save as request.sh, then run: sh request.sh\n",
		"go":                "// Save as main.go, then run: go run main.go\n",
		"js":                "// Save as request.mjs, then run: node request.mjs\n",
		"python":            "# Save as request.py, then run: python3 request.py (needs: pip install requests)\n",
		"openai-python":     "# Save as request.py, then run: python3 request.py (needs: pip install openai)\n",
		"openai-node":       "// Save as request.mjs, then run: node request.mjs (needs: npm install openai)\n",
		"google-python":     "# Save as request.py, then run: python3 request.py (needs: pip install google-api-python-client)\n",
		"google-node":       "// Save as request.mjs, then run: node request.mjs (needs: npm install @googleapis/kgsearch)\n",
		"opensearch-python": "# Save as request.py, then run: python3 request.py (needs: pip install opensearch-py)\n",
		"opensearch-node":   "// Save as request.mjs, then run: node request.mjs (needs: npm install @opensearch-project/opensearch)\n",
	}
	seen := 0
	for _, slug := range []string{"chat", "entities", "cluster"} {
		for _, k := range Kinds(slug, op) {
			got := Write(k.ID, Target{Proxy: "http://h", Direct: Direct{Prefix: "/proxy/" + slug, Slug: slug}}, op, req)
			first, _, _ := strings.Cut(got, "\n")
			if first+"\n" != want[k.ID] {
				t.Errorf("%s/%s: first line %q; want %q", slug, k.ID, first, want[k.ID])
			}
			if strings.HasPrefix(k.Label, "Node") || k.ID == "js" {
				if k.File != "request.mjs" {
					t.Errorf("%s: file %s; want an .mjs file", k.ID, k.File)
				}
			}
			seen++
		}
	}
	if seen != 5*3+6 {
		t.Errorf("wrote %d snippets; want %d", seen, 5*3+6)
	}
}

// TestStreamingSnippets: a request that asks for a stream is read as one by every plain kind:
// curl -N, HTTPie --stream, Python's stream=True, and the others print each chunk as it comes.
func TestStreamingSnippets(t *testing.T) {
	op := &catalog.Operation{ID: "createChatCompletion", Path: "/v1/chat/completions"}
	for _, tc := range []struct {
		kind, streamed string
	}{
		{"curl", "curl -N -X POST"},
		{"httpie", "http --ignore-stdin --check-status --stream POST"},
		{"python", "    stream=True,\n)\nprint(response.status_code, response.reason)\nfor line in response.iter_lines():\n    print(line.decode())\n"},
		{"js", "for await (const chunk of response.body) process.stdout.write(decoder.decode(chunk, { stream: true }));\n"},
		{"go", "io.Copy(os.Stdout, res.Body)"},
		{"openai-python", "for chunk in completion:"},
		{"openai-node", "for await (const chunk of completion)"},
	} {
		for _, stream := range []bool{true, false} {
			body := `{"model":"m","messages":[],"stream":false}`
			if stream {
				body = `{"model":"m","messages":[],"stream":true}`
			}
			req := &request.Request{Method: "POST", URL: "/proxy/chat/v1/chat/completions", Path: "/v1/chat/completions",
				Headers: []fetch.Header{{Name: "Content-Type", Value: "application/json"}}, Body: []byte(body)}
			for _, target := range []Target{
				{Proxy: "http://h", Direct: Direct{Prefix: "/proxy/chat", Slug: "chat"}},
				{Direct: Direct{BaseURL: "https://api.v0.dev", Prefix: "/proxy/chat", Slug: "chat", Proxied: true}},
			} {
				got := Write(tc.kind, target, op, req)
				if has := strings.Contains(got, tc.streamed); has != stream {
					t.Errorf("%s, stream %v, proxy %q: holds %q: %v; want %v\n%s", tc.kind, stream, target.Proxy, tc.streamed, has, stream, got)
				}
			}
		}
	}
}

// TestGoogleNodeCall: the googleapis call is indented evenly, its keys bare where JavaScript
// allows, and numbers and booleans passed as such when the parameter's schema says so (a
// value that is no number stays a string).
func TestGoogleNodeCall(t *testing.T) {
	op := &catalog.Operation{ID: "activities.list", Path: "/admin/reports/v1/activity/users/{userKey}/applications/{applicationName}",
		Parameters: []catalog.Parameter{
			{Name: "userKey", In: "path", Schema: &catalog.Schema{Type: "string"}},
			{Name: "applicationName", In: "path", Schema: &catalog.Schema{Type: "string"}},
			{Name: "maxResults", In: "query", Schema: &catalog.Schema{Type: "integer"}},
			{Name: "includeDeleted", In: "query", Schema: &catalog.Schema{Type: "boolean"}},
			{Name: "ids", In: "query", Schema: &catalog.Schema{Type: "array", Items: &catalog.Schema{Type: "integer"}}},
			{Name: "event-name", In: "query", Schema: &catalog.Schema{Type: "string"}},
			{Name: "limit", In: "query", Schema: &catalog.Schema{Type: "integer"}},
		}}
	req := &request.Request{Method: "GET", Path: "/admin/reports/v1/activity/users/all/applications/calendar",
		URL: "/proxy/reports/admin/reports/v1/activity/users/all/applications/calendar?maxResults=3",
		Query: []request.Pair{{Name: "maxResults", Value: "3"}, {Name: "includeDeleted", Value: "true"},
			{Name: "ids", Value: "1"}, {Name: "ids", Value: "2"}, {Name: "event-name", Value: "7"}, {Name: "limit", Value: "lots"}},
		Body: []byte(`{"a":{"b":1}}`)}
	target := Target{Proxy: "http://h", Direct: Direct{Prefix: "/proxy/reports", Slug: "reports"}}
	node := GoogleNode(target, op, req)
	wantNode := `const response = await service.activities.list(
  {
    userKey: "all",
    applicationName: "calendar",
    maxResults: 3,
    includeDeleted: true,
    ids: [1, 2],
    "event-name": "7",
    limit: "lots",
    requestBody: {
      "a": {
        "b": 1
      }
    },
  },
  { rootUrl: "http://h/proxy/reports/" },
);
`
	if !strings.Contains(node, wantNode) {
		t.Errorf("got\n%s\nwant it to hold\n%s", node, wantNode)
	}
	py := GooglePython(target, op, req)
	wantPy := `service.activities().list(userKey="all", applicationName="calendar", maxResults=3, includeDeleted=True, ids=[1, 2], event_name="7", limit="lots", body=json.loads("{\"a\":{\"b\":1}}")).execute()`
	if !strings.Contains(py, wantPy) {
		t.Errorf("got\n%s\nwant it to hold\n%s", py, wantPy)
	}
}
