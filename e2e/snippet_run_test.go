package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/app/snippet"
	"loupe/server"
)

// snippetCase is one operation of an API, filled in, whose snippets the run tests execute.
type snippetCase struct {
	slug, op string
	params   map[string][]string
	body     string // "" keeps the form's initial body
	stream   bool   // the answer is an event stream, which each snippet prints as it comes
}

// snippetCases are one operation of every API, each with values the snippets must quote.
var snippetCases = []snippetCase{
	{slug: "script", op: "projects.create", body: `{"title": "It's \"quoted\" $HOME!! ` + "`id`" + ` !-1"}`},
	{slug: "chat", op: "createChatCompletion", body: `{"model": "v0-1.0-md", "messages": [{"role": "user", "content": "Say 'hi' & \"bye\"!\n$(id) !echo"}]}`},
	{slug: "chat", op: "createChatCompletion", body: `{"model": "v0-1.0-md", "stream": true, "messages": [{"role": "user", "content": "Stream 'it'"}]}`, stream: true},
	{slug: "entities", op: "entities.search", params: map[string][]string{"query:query": {"it's Paris & co!"}, "query:limit": {"2"}, "query:types": {"Place", "City"}}},
	{slug: "docs", op: "listProjects", params: map[string][]string{"query:slug": {"pip"}}},
	{slug: "cluster", op: "cluster.health", params: map[string][]string{"query:level": {"indices"}}},
	{slug: "pagination", op: "listItemsCursor", params: map[string][]string{"query:page_size": {"5"}}},
	{slug: "reports", op: "activities.list", params: map[string][]string{"path:userKey": {"all"}, "path:applicationName": {"calendar"}, "query:maxResults": {"3"}}},
}

// seen is one request a snippet made, as the server received it.
type seen struct {
	Method, URI, Path string
	Query             url.Values
	Header            http.Header
	Body              []byte
}

// recorder keeps every request under /proxy/ (or every request at all) by its X-Snippet tag.
type recorder struct {
	mu   sync.Mutex
	reqs []seen
}

func (r *recorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		r.mu.Lock()
		r.reqs = append(r.reqs, seen{req.Method, req.RequestURI, req.URL.Path, req.URL.Query(), req.Header.Clone(), body})
		r.mu.Unlock()
		h.ServeHTTP(w, req)
	})
}

// take returns and forgets the requests whose path starts with prefix.
func (r *recorder) take(prefix string) []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	var got, kept []seen
	for _, s := range r.reqs {
		if strings.HasPrefix(s.Path, prefix) {
			got = append(got, s)
		} else {
			kept = append(kept, s)
		}
	}
	r.reqs = kept
	return got
}

// howTo reads a snippet's first line: the file it says to save it as, and the command that
// runs it.
var howTo = regexp.MustCompile(`^(?:#|//) Save as (\S+), then run: ([^(\n]+?)(?: \(needs: [^)]*\))?\n`)

// exactKinds are the plain kinds, whose request line and body must be byte for byte the form's;
// a client library builds its own query and serializes the body again.
var exactKinds = map[string]bool{"curl": true, "httpie": true, "python": true, "js": true, "go": true}

// interactiveBash runs the shell snippet in file as a user pasting it into a terminal would:
// an interactive bash, where ! is history expansion (a script run by sh has none).
func interactiveBash(file string) *exec.Cmd {
	cmd := exec.Command("bash", "--norc", "--noprofile", "-i")
	if f, err := os.Open(file); err == nil {
		cmd.Stdin = f // closed with the process's files
	}
	return cmd
}

// pythonClients cannot be run here: their packages are not installable from the reachable
// registries (see the README); they are compiled by python3 so that a syntax error fails.
var pythonClients = map[string]bool{"openai-python": true, "google-python": true, "opensearch-python": true}

// requireTools fails (never skips) when a runner is missing.
func requireTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"sh", "curl", "http", "python3", "node", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the snippet tests run %s, which is missing: run `make deps` (%v)", tool, err)
		}
	}
	if _, err := exec.Command("python3", "-c", "import requests").CombinedOutput(); err != nil {
		t.Fatal("the snippet tests need Python's requests: apt-get install python3-requests")
	}
	for _, pkg := range []string{"openai", "@googleapis/kgsearch", "@opensearch-project/opensearch"} {
		if _, err := os.Stat(filepath.Join("node_modules", pkg, "package.json")); err != nil {
			t.Fatalf("the snippet tests need %s from npm: run `make deps` (npm ci in e2e/)", pkg)
		}
	}
}

// TestSnippetsRun runs every snippet kind of one operation of every API against a running
// Loupe, through its proxy and (with a stub standing in for the real API) straight to the real
// API with the credential from its environment variable, and checks that each sent exactly the
// form's request and got Loupe's answer.
func TestSnippetsRun(t *testing.T) {
	t.Parallel()
	requireTools(t)
	rec := &recorder{}
	srv := newServer(t, server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	loupe := httptest.NewServer(rec.wrap(srv))
	defer func() { loupe.Close(); srv.Close() }()
	stub := httptest.NewServer(rec.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id": "stub", "object": "chat.completion", "choices": []}`)
	})))
	defer stub.Close()

	res, err := http.Get(loupe.URL + "/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var cat catalog.Catalog
	err = json.NewDecoder(res.Body).Decode(&cat)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}

	type job struct {
		name   string
		kind   string
		source string
		req    *request.Request
		target snippet.Target
		prefix string // the path the recorder files its requests under
		stream bool
	}
	var jobs []job
	env := map[string]string{}
	for ci, c := range snippetCases {
		api := cat.API(c.slug)
		op := api.Operation(c.op)
		if op == nil {
			t.Fatalf("%s has no operation %s", c.slug, c.op)
		}
		st := request.Initial(op)
		for k, v := range c.params {
			st.Params[k] = v
		}
		if c.body != "" {
			st.Body = c.body
		}
		req, errs := request.Build(op, "/proxy/"+c.slug, st)
		if len(errs) > 0 {
			t.Fatalf("%s: the form is invalid: %v", c.op, errs)
		}
		held := snippet.Held(api, op)
		for _, kind := range snippet.Kinds(c.slug, op) {
			for _, real := range []bool{false, true} {
				name := fmt.Sprintf("%s#%d/%s/proxy", c.slug, ci, kind.ID)
				tag := fmt.Sprintf("/t%d!$x", len(jobs)) // a path a shell must not expand
				target := snippet.Target{Proxy: loupe.URL, Direct: snippet.Direct{Prefix: "/proxy/" + c.slug, Slug: c.slug}, Held: held}
				prefix := "/proxy/" + c.slug
				if real {
					name = fmt.Sprintf("%s#%d/%s/real", c.slug, ci, kind.ID)
					target = snippet.Target{Direct: snippet.Direct{BaseURL: stub.URL + tag, Prefix: "/proxy/" + c.slug, Slug: c.slug, Proxied: true}, Held: held}
					prefix = tag
					for _, h := range held {
						env[snippet.KeyVar(c.slug, h)] = "s3cr3t-" + c.slug
					}
				}
				jobs = append(jobs, job{name, kind.ID, snippet.Write(kind.ID, target, op, req), req, target, prefix, c.stream})
			}
		}
	}

	dir, err := os.MkdirTemp(".", ".snippets-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	abs, _ := filepath.Abs(dir)
	environ := os.Environ()
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}

	// Each snippet is saved under the name its first line suggests, in a folder of its own. Go:
	// every program (main.go, as suggested) in one module, built by one go build rather than
	// one go run each, for time; the rest run with the command their first line gives.
	files := make([]string, len(jobs))
	runs := make([][]string, len(jobs))
	for i, j := range jobs {
		m := howTo.FindStringSubmatch(j.source)
		if m == nil {
			t.Fatalf("%s: the first line does not say how to save and run it:\n%s", j.name, j.source)
		}
		dir := filepath.Join(abs, fmt.Sprintf("j%d", i))
		if j.kind == "go" {
			dir = filepath.Join(abs, "gosnippets", fmt.Sprintf("s%d", i))
			if m[2] != "go run "+m[1] {
				t.Errorf("%s: run with %q; want go run %s", j.name, m[2], m[1])
			}
		}
		os.MkdirAll(dir, 0o755)
		files[i] = filepath.Join(dir, m[1])
		runs[i] = strings.Fields(m[2])
		os.WriteFile(files[i], []byte(j.source), 0o644)
	}
	os.WriteFile(filepath.Join(abs, "gosnippets", "go.mod"), []byte("module gosnippets\n\ngo 1.22\n"), 0o644)
	build := exec.Command("go", "build", "-o", filepath.Join(abs, "bin")+"/", "./...")
	build.Dir = filepath.Join(abs, "gosnippets")
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of the Go snippets: %v\n%s", err, out)
	}

	type result struct {
		out []byte
		err error
	}
	results := make([]result, len(jobs))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, j := range jobs {
		var cmd *exec.Cmd
		switch {
		case j.kind == "go":
			cmd = exec.Command(filepath.Join(abs, "bin", fmt.Sprintf("s%d", i)))
		case pythonClients[j.kind]:
			cmd = exec.Command("python3", "-m", "py_compile", files[i])
		case runs[i][0] == "sh" || runs[i][0] == "bash":
			cmd = interactiveBash(files[i])
			cmd.Dir = filepath.Dir(files[i])
		default:
			cmd = exec.Command(runs[i][0], runs[i][1:]...)
			cmd.Dir = filepath.Dir(files[i])
		}
		cmd.Env = environ
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			timer := time.AfterFunc(60*time.Second, func() {
				if cmd.Process != nil {
					cmd.Process.Kill()
				}
			})
			out, err := cmd.CombinedOutput()
			timer.Stop()
			results[i] = result{out, err}
		}()
	}
	wg.Wait()

	// The requests are checked in job order: each job's requests are told apart by the
	// tag in the stub's path or, through the proxy, by running in order below.
	for i, j := range jobs {
		r := results[i]
		if r.err != nil {
			t.Errorf("%s failed: %v\n%s\n--- snippet:\n%s", j.name, r.err, r.out, j.source)
			continue
		}
		if pythonClients[j.kind] {
			continue
		}
		if j.kind != "curl" && j.kind != "httpie" && j.kind != "openai-node" && !strings.Contains(string(r.out), "200") {
			t.Errorf("%s printed no 200:\n%s\n--- snippet:\n%s", j.name, r.out, j.source)
		}
		if strings.Contains(j.source, "s3cr3t") {
			t.Errorf("%s holds the credential's value:\n%s", j.name, j.source)
		}
		// A stream through the proxy is printed to its end: the events, or the client's chunks.
		wantEnd := "data: [DONE]"
		if j.kind == "openai-node" {
			wantEnd = `"finish_reason":"stop"`
		}
		if j.stream && j.target.Proxy != "" && !strings.Contains(string(r.out), wantEnd) {
			t.Errorf("%s did not print the stream to its end (%s):\n%s\n--- snippet:\n%s", j.name, wantEnd, r.out, j.source)
		}
	}
	// Through the proxy every kind of one case sends the same request: each one Loupe got for
	// an API must be one of its cases', the plain kinds' byte for byte.
	for _, slug := range snippetSlugs() {
		var wants []*request.Request
		exact, loose := 0, 0
		for _, j := range jobs {
			if j.target.Proxy != "" && strings.HasPrefix(j.name, slug+"#") && !pythonClients[j.kind] {
				if !slices.Contains(wants, j.req) {
					wants = append(wants, j.req)
				}
				if exactKinds[j.kind] {
					exact++
				} else {
					loose++
				}
			}
		}
		got := rec.take("/proxy/" + slug + "/")
		if len(got) != exact+loose {
			t.Errorf("%s: Loupe's proxy got %d requests; want %d", slug, len(got), exact+loose)
		}
		matched := 0
		for _, g := range got {
			if anyRequest(wants, g, true) == "" {
				matched++
			} else if why := anyRequest(wants, g, false); why != "" {
				t.Errorf("%s: the proxy got a request unlike the form's: %s", slug, why)
			}
			if a := g.Header.Get("Authorization"); a != "" && !strings.Contains(a, "unused") {
				t.Errorf("%s: a proxy snippet sent Authorization %q; want none (or the openai client's placeholder)", slug, a)
			}
		}
		if matched < exact {
			t.Errorf("%s: %d of the proxy's requests were exactly the form's; want at least %d", slug, matched, exact)
		}
	}
	for _, j := range jobs {
		if pythonClients[j.kind] || j.target.Proxy != "" {
			continue
		}
		got := rec.take(j.prefix + "/")
		if len(got) != 1 {
			t.Errorf("%s: the stub got %d requests; want 1", j.name, len(got))
			continue
		}
		exact := exactKinds[j.kind]
		g := got[0]
		uri := strings.TrimPrefix(g.URI, j.prefix)
		// The credential the snippet added from its variable, as the API's scheme says.
		for _, h := range j.target.Held {
			v := env[snippet.KeyVar(j.target.Direct.Slug, h)]
			before, _, _ := strings.Cut(h.Value, snippet.HeldValue)
			if h.In == "query" {
				if g.Query.Get(h.Name) != v && !(h.Name == "access_token" && g.Header.Get("Authorization") == "Bearer "+v) {
					t.Errorf("%s: query %s = %q; want %q from its variable", j.name, h.Name, g.Query.Get(h.Name), v)
				}
				uri = dropQuery(uri, h.Name)
			} else if got := g.Header.Get(h.Name); got != before+v {
				t.Errorf("%s: header %s = %q; want %q", j.name, h.Name, got, before+v)
			}
		}
		if why := sameRequest(j.req, "/proxy/"+j.target.Direct.Slug+uri, g, exact); why != "" {
			t.Errorf("%s: %s\n--- snippet:\n%s", j.name, why, j.source)
		}
	}
}

// snippetSlugs lists the APIs of snippetCases, once each.
func snippetSlugs() []string {
	var out []string
	for _, c := range snippetCases {
		if !slices.Contains(out, c.slug) {
			out = append(out, c.slug)
		}
	}
	return out
}

// anyRequest is sameRequest against each of wants: "" when g is one of them, else why it is
// not the first.
func anyRequest(wants []*request.Request, g seen, exact bool) string {
	why := "no request expected"
	for i, w := range wants {
		d := sameRequest(w, g.URI, g, exact)
		if d == "" {
			return ""
		}
		if i == 0 {
			why = d
		}
	}
	return why
}

// dropQuery removes the name=value pairs of name from a request URI's query.
func dropQuery(uri, name string) string {
	path, query, ok := strings.Cut(uri, "?")
	if !ok {
		return uri
	}
	var kept []string
	for _, p := range strings.Split(query, "&") {
		if n, _, _ := strings.Cut(p, "="); n != url.QueryEscape(name) {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return path
	}
	return path + "?" + strings.Join(kept, "&")
}

// sameRequest says how the received request g (its URI as uri) differs from want, or "".
// Exact compares the request URI and the body byte for byte; otherwise the path, the decoded
// query and the body as JSON.
func sameRequest(want *request.Request, uri string, g seen, exact bool) string {
	if g.Method != want.Method {
		return fmt.Sprintf("method %s; want %s", g.Method, want.Method)
	}
	if exact {
		if uri != want.URL {
			return fmt.Sprintf("URI %s; want %s", uri, want.URL)
		}
		if !bytes.Equal(g.Body, want.Body) {
			return fmt.Sprintf("body %q; want %q", g.Body, want.Body)
		}
	} else {
		wu, _ := url.Parse(want.URL)
		gu, _ := url.Parse(uri)
		if gu.EscapedPath() != wu.EscapedPath() && gu.Path != wu.Path {
			return fmt.Sprintf("path %s; want %s", gu.Path, wu.Path)
		}
		gq, wq := gu.Query(), wu.Query()
		for k, v := range wq {
			gv := gq[k]
			if len(gv) == 1 && len(v) > 1 {
				gv = strings.Split(gv[0], ",")
			}
			if !reflect.DeepEqual(gv, v) {
				return fmt.Sprintf("query %s = %q; want %q", k, gq[k], v)
			}
		}
		if want.Body != nil {
			var a, b any
			if json.Unmarshal(g.Body, &a) != nil || json.Unmarshal(want.Body, &b) != nil || !reflect.DeepEqual(a, b) {
				return fmt.Sprintf("body %s; want %s", g.Body, want.Body)
			}
		}
	}
	for _, h := range want.Headers {
		if got := g.Header.Get(h.Name); !strings.HasPrefix(got, h.Value) {
			return fmt.Sprintf("header %s = %q; want %q", h.Name, got, h.Value)
		}
	}
	return ""
}
