package snippet

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"loupe/app/catalog"
	"loupe/app/request"
)

// sentPart is one part of a multipart body as a server reads it.
type sentPart struct {
	Name, FileName, ContentType, Headers, Content string
}

// sentForm is a form body as a server reads it: its media type and its parts or its fields,
// in order.
type sentForm struct {
	MediaType string
	Parts     []sentPart
	Fields    [][2]string
}

// readForm reads a form body the way a server does.
func readForm(contentType string, body []byte) (sentForm, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return sentForm{}, fmt.Errorf("reading Content-Type %q: %w", contentType, err)
	}
	out := sentForm{MediaType: mt}
	if mt == "application/x-www-form-urlencoded" {
		for _, piece := range strings.Split(string(body), "&") {
			n, v, _ := strings.Cut(piece, "=")
			un, err1 := url.QueryUnescape(n)
			uv, err2 := url.QueryUnescape(v)
			if err1 != nil || err2 != nil {
				return out, fmt.Errorf("reading the field %q", piece)
			}
			out.Fields = append(out.Fields, [2]string{un, uv})
		}
		return out, nil
	}
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		p, err := r.NextRawPart()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("reading a part: %w", err)
		}
		data, _ := io.ReadAll(p)
		var extra []string
		for k, v := range p.Header {
			if k != "Content-Disposition" && k != "Content-Type" {
				extra = append(extra, k+": "+strings.Join(v, ","))
			}
		}
		out.Parts = append(out.Parts, sentPart{p.FormName(), p.FileName(), p.Header.Get("Content-Type"), strings.Join(extra, "\n"), string(data)})
	}
}

// howTo reads a snippet's first line: the file to save it as, and the command that runs it.
var howTo = regexp.MustCompile(`^(?:#|//) Save as (\S+), then run: ([^(\n]+?)(?: \(needs: [^)]*\))?\n`)

// requireRunners fails (never skips) when a snippet's runner is missing: `make deps` installs
// HTTPie, which brings Python's requests.
func requireRunners(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"bash", "curl", "http", "python3", "node", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the form snippet test runs %s, which is missing: run `make deps` (%v)", tool, err)
		}
	}
	if out, err := exec.Command("python3", "-c", "import requests").CombinedOutput(); err != nil {
		t.Fatalf("the form snippet test needs Python's requests (apt-get install python3-requests): %v\n%s", err, out)
	}
}

// formCase is a form filled in, and the snippet kinds that send exactly what it sends.
type formCase struct {
	name  string
	body  *catalog.RequestBody
	form  string
	files map[string]request.File
	kinds []string
}

var (
	text     = &catalog.Schema{Type: "string"}
	file     = &catalog.Schema{Type: "string", Format: "binary"}
	object   = &catalog.Schema{Type: "object", AdditionalProperties: &catalog.Schema{}}
	tricky   = `it's "quoted" $HOME !! ` + "`id`" + ` a=b;c @x \ :y`
	allKinds = []string{"curl", "httpie", "python", "js", "go"}
)

var formCases = []formCase{
	{
		name: "multipart with files",
		body: &catalog.RequestBody{ContentType: "multipart/form-data", Schema: &catalog.Schema{Type: "object", Properties: []catalog.Property{
			{Name: "title", Schema: text}, {Name: "photo", Schema: file}, {Name: "tags", Schema: &catalog.Schema{Type: "array", Items: text}},
			{Name: "docs", Schema: &catalog.Schema{Type: "array", Items: file}}, {Name: "@odd:name;x", Schema: text},
		}}},
		form: `{"title": ` + str(tricky) + `, "photo": {"$file": "photo.png"}, "tags": ["a", "=b"], "docs": [{"$file": "a b;c.txt"}, {"$file": "notes.txt"}], "@odd:name;x": "@v"}`,
		files: map[string]request.File{
			"/photo":  {Name: "photo.png", Type: "image/png", Data: []byte("\x89PNG\r\n\x1a\n\x00bytes")},
			"/docs/0": {Name: "a b;c.txt", Type: "text/plain", Data: []byte("first\n")},
			"/docs/1": {Name: "notes.txt", Data: []byte("second")},
		},
		kinds: allKinds,
	},
	{
		name: "multipart with a typed field and a part header",
		body: &catalog.RequestBody{ContentType: "multipart/form-data", Schema: &catalog.Schema{Type: "object", Properties: []catalog.Property{
			{Name: "meta", Schema: object}, {Name: "photo", Schema: file},
		}}, Encoding: map[string]catalog.Encoding{"photo": {Headers: []catalog.Parameter{{Name: "X-Rate", In: "header", Schema: text}}}}},
		form:  `{"meta": {"say": ` + str(tricky) + `}, "photo": {"$file": "photo.png"}}`,
		files: map[string]request.File{"/photo": {Name: "photo.png", Type: "image/png", Data: []byte("png")}},
		kinds: []string{"curl", "python", "go"}, // HTTPie and FormData say what they cannot send
	},
	{
		name: "urlencoded",
		body: &catalog.RequestBody{ContentType: "application/x-www-form-urlencoded", Schema: &catalog.Schema{Type: "object", Properties: []catalog.Property{
			{Name: "z", Schema: text}, {Name: "a b", Schema: text}, {Name: "list", Schema: &catalog.Schema{Type: "array", Items: text}},
			{Name: "filter", Schema: object},
		}}, Encoding: map[string]catalog.Encoding{"filter": {Style: catalog.StyleDeepObject}}},
		form:  `{"z": ` + str(tricky+" + & ü") + `, "a b": "", "list": ["1", "2"], "filter": {"status": "open"}}`,
		kinds: allKinds,
	},
}

// TestFormSnippetsRun runs the curl, HTTPie, Python, JavaScript and Go snippets of filled form
// bodies against a server, with the files the form names beside them, and checks that the
// server read the same parts (names, filenames, types, headers, contents) or fields, in the same
// order, as from the form's own request.
func TestFormSnippetsRun(t *testing.T) {
	requireRunners(t)
	var mu sync.Mutex
	got := map[string][]byte{} // by the request's path: its Content-Type and body
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got[r.URL.Path] = append([]byte(r.Header.Get("Content-Type")+"\n"), body...)
		mu.Unlock()
		io.WriteString(w, "ok")
	}))
	defer srv.Close()

	type job struct {
		name, dir string
		cmd       *exec.Cmd
		want      sentForm
		source    string
	}
	var jobs []job
	root := t.TempDir()
	for ci, c := range formCases {
		op := &catalog.Operation{Method: "POST", Path: fmt.Sprintf("/c%d/{kind}", ci), Body: c.body,
			Parameters: []catalog.Parameter{{Name: "kind", In: "path", Required: true, Schema: text}}}
		for _, kind := range c.kinds {
			st := request.State{Params: map[string][]string{"path:kind": {kind}}, Body: c.form, Files: c.files}
			req, errs := request.Build(op, "/proxy/x", st)
			if len(errs) > 0 {
				t.Fatalf("%s: the form is invalid: %v", c.name, errs)
			}
			want, err := readForm(req.Headers[len(req.Headers)-1].Value, req.Body)
			if err != nil {
				t.Fatalf("%s: the form's own request: %v", c.name, err)
			}
			source := Write(kind, Target{Proxy: srv.URL, Direct: Direct{Prefix: "/proxy/x", Slug: "x"}}, op, req)
			dir := filepath.Join(root, fmt.Sprintf("c%d-%s", ci, kind))
			os.MkdirAll(dir, 0o755)
			for _, f := range c.files {
				os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644)
			}
			m := howTo.FindStringSubmatch(source)
			if m == nil {
				t.Fatalf("%s/%s: no how-to line:\n%s", c.name, kind, source)
			}
			os.WriteFile(filepath.Join(dir, m[1]), []byte(source), 0o644)
			var cmd *exec.Cmd
			if strings.HasPrefix(m[2], "sh ") {
				// As a user pasting it into a terminal: an interactive bash, ! expanded.
				cmd = exec.Command("bash", "--norc", "--noprofile", "-i")
				cmd.Stdin = strings.NewReader(source)
			} else {
				f := strings.Fields(m[2])
				cmd = exec.Command(f[0], f[1:]...)
			}
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-buildvcs=false")
			jobs = append(jobs, job{c.name + "/" + kind, dir, cmd, want, source})
		}
	}
	var wg sync.WaitGroup
	errs := make([]string, len(jobs))
	for i := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			timer := time.AfterFunc(90*time.Second, func() { jobs[i].cmd.Process.Kill() })
			defer timer.Stop()
			if out, err := jobs[i].cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Sprintf("%v\n%s", err, out)
			}
		}()
	}
	wg.Wait()
	for i, j := range jobs {
		if errs[i] != "" {
			t.Errorf("%s failed: %s\n--- snippet:\n%s", j.name, errs[i], j.source)
			continue
		}
		ci, kind, _ := strings.Cut(filepath.Base(j.dir), "-")
		raw, ok := got["/proxy/x/"+ci+"/"+kind]
		if !ok {
			t.Errorf("%s: the server got no request\n--- snippet:\n%s", j.name, j.source)
			continue
		}
		ct, body, _ := bytes.Cut(raw, []byte("\n"))
		sent, err := readForm(string(ct), body)
		if err != nil {
			t.Errorf("%s: %v", j.name, err)
			continue
		}
		if !reflect.DeepEqual(sent, j.want) {
			t.Errorf("%s: the server read\n%+v\nwant (the form's own request)\n%+v\n--- snippet:\n%s", j.name, sent, j.want, j.source)
		}
	}
}
