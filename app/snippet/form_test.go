package snippet

import (
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/request"
)

// multipartReq is a multipart request as request.Build returns it: a field, a file, a typed
// field with a part header.
var multipartReq = &request.Request{Method: "POST", URL: "/proxy/x/upload",
	Headers: []fetch.Header{{Name: "X-Trace", Value: "1"}, {Name: "Content-Type", Value: "multipart/form-data; boundary=LoupeFormBoundaryabc"}},
	Body:    []byte("--LoupeFormBoundaryabc--\r\n"),
	Parts: []request.Part{
		{Name: "title", Value: "it's!"},
		{Name: "photo", FileName: "my photo.png", ContentType: "image/png", Size: 3},
		{Name: "meta", Value: `{"a":1}`, ContentType: "application/json", Headers: []fetch.Header{{Name: "X-Rate", Value: "5"}}},
	}}

// urlencodedReq is an application/x-www-form-urlencoded request as request.Build returns it.
var urlencodedReq = &request.Request{Method: "POST", URL: "/proxy/x/token",
	Headers: []fetch.Header{{Name: "Content-Type", Value: "application/x-www-form-urlencoded"}},
	Body:    []byte("z=it%27s+%21&filter%5Bs%5D=a%26b"),
	Form:    []request.Pair{{Name: "z", Value: "it's !"}, {Name: "filter[s]", Value: "a&b"}}}

func TestFormSnippets(t *testing.T) {
	proxy := Target{Proxy: "http://h", Direct: Direct{Prefix: "/proxy/x", Slug: "x"}}
	tests := []struct {
		kind string
		req  *request.Request
		want []string // lines the snippet holds, in order
		not  []string // text it must not hold
	}{
		{"curl", multipartReq, []string{
			"curl -X POST http://h/proxy/x/upload \\",
			"  -H 'X-Trace: 1' \\",
			"  --form-string 'title=it'\\''s!' \\",
			"  -F 'photo=@\"my photo.png\";type=image/png' \\",
			"  -F 'meta=\"{\\\"a\\\":1}\";type=application/json;headers=\"X-Rate: 5\"'",
		}, []string{"boundary", "--data-raw"}},
		{"curl", urlencodedReq, []string{
			"  -H 'Content-Type: application/x-www-form-urlencoded' \\",
			"  --data-urlencode 'z=it'\\''s !' \\",
			"  --data-urlencode 'filter[s]=a&b'",
		}, []string{"--data-raw"}},
		{"httpie", multipartReq, []string{
			"# HTTPie sends the field meta without its Content-Type (application/json): it types only a file's part.",
			"# HTTPie cannot send the part meta's header X-Rate: 5.",
			"http --ignore-stdin --check-status --multipart POST http://h/proxy/x/upload \\",
			"  X-Trace:1 \\",
			"  'title=it'\\''s!' \\",
			"  'photo@my photo.png;type=image/png' \\",
			`  'meta={"a"\:1}'`,
		}, []string{"boundary", "--raw"}},
		{"httpie", urlencodedReq, []string{
			"http --ignore-stdin --check-status --form POST http://h/proxy/x/token \\",
			"  'z=it'\\''s !' \\",
			"  'filter[s]=a&b'",
		}, []string{"--raw"}},
		{"python", multipartReq, []string{
			`    headers={`, `        "X-Trace": "1",`, `    },`,
			`    files=[`,
			`        ("title", (None, "it's!")),`,
			`        ("photo", ("my photo.png", open("my photo.png", "rb"), "image/png")),`,
			`        ("meta", (None, "{\"a\":1}", "application/json", {"X-Rate": "5"})),`,
			`    ],`,
		}, []string{"boundary", "data="}},
		{"python", urlencodedReq, []string{
			`    data=[`, `        ("z", "it's !"),`, `        ("filter[s]", "a&b"),`, `    ],`,
		}, []string{".encode()"}},
		{"js", multipartReq, []string{
			`// FormData sends the typed field meta as a file named blob: it gives a type only to a file's part.`,
			`// FormData cannot send the part meta's header X-Rate: 5.`,
			`import { readFile } from "node:fs/promises";`,
			`const form = new FormData();`,
			`form.append("title", "it's!");`,
			`form.append("photo", new Blob([await readFile("my photo.png")], { type: "image/png" }), "my photo.png");`,
			`form.append("meta", new Blob(["{\"a\":1}"], { type: "application/json" }));`,
			`  body: form,`,
		}, []string{"boundary"}},
		{"js", urlencodedReq, []string{
			`  body: new URLSearchParams([`, `    ["z", "it's !"],`, `    ["filter[s]", "a&b"],`, `  ]),`,
		}, nil},
		{"go", multipartReq, []string{
			`	form := multipart.NewWriter(&body)`,
			"	if err := form.WriteField(\"title\", `it's!`); err != nil {",
			"		\"Content-Disposition\": {`form-data; name=\"photo\"; filename=\"my photo.png\"`},",
			`		"Content-Type": {"image/png"},`,
			`	}, fileOf("my photo.png"))`,
			`		"X-Rate": {"5"},`,
			"	}, strings.NewReader(`{\"a\":1}`))",
			`	req, err := http.NewRequest("POST", "http://h/proxy/x/upload", &body)`,
			`	req.Header.Set("Content-Type", form.FormDataContentType())`,
			`	req.Header.Set("X-Trace", "1")`,
			`func addPart(form *multipart.Writer, header textproto.MIMEHeader, content io.Reader) {`,
			`func fileOf(name string) io.Reader {`,
		}, []string{"boundary"}},
		{"go", urlencodedReq, []string{
			`	form := strings.Join([]string{`,
			"		\"z=\" + url.QueryEscape(`it's !`),",
			"		\"filter[s]=\" + url.QueryEscape(`a&b`),",
			`	}, "&")`,
			`	req, err := http.NewRequest("POST", "http://h/proxy/x/token", strings.NewReader(form))`,
		}, nil},
	}
	for _, tt := range tests {
		got := Write(tt.kind, proxy, nil, tt.req)
		rest := got
		for _, line := range tt.want {
			i := strings.Index(rest, line+"\n")
			if i < 0 && strings.HasSuffix(rest, line) {
				i = len(rest) - len(line)
			}
			if i < 0 {
				t.Errorf("%s: got\n%s\nwant the line (after the ones before it)\n%s", tt.kind, got, line)
				break
			}
			rest = rest[i+len(line):]
		}
		for _, s := range tt.not {
			if strings.Contains(got, s) {
				t.Errorf("%s: got\n%s\nwant no %q", tt.kind, got, s)
			}
		}
	}
}

// TestCurlFormNotes: a part's name with =, which curl cuts, is said in a comment, through the
// proxy and to the real API.
func TestCurlFormNotes(t *testing.T) {
	req := &request.Request{Method: "POST", URL: "/proxy/x/u", Parts: []request.Part{{Name: "a=b", Value: "v"}}}
	want := "# curl cuts a part's name at its first =: the part a=b goes as a.\n"
	for _, got := range []string{Curl("http://h", req, nil), CurlDirect(Direct{BaseURL: "https://api", Prefix: "/proxy/x"}, req, nil)} {
		if !strings.Contains(got, want) {
			t.Errorf("got\n%s\nwant the note %q", got, want)
		}
	}
}

// TestEmptyFormSnippet: a form body left empty is no body when it is optional (curl sends
// no body and no Content-Type, as the form does); a required one is the closing boundary
// alone, which curl's -F cannot write, so the snippet sends its bytes and says why.
func TestEmptyFormSnippet(t *testing.T) {
	for _, tt := range []struct {
		name     string
		required bool
		want     []string
		not      []string
	}{
		{"optional", false, []string{"curl -X POST http://h/proxy/x/up"}, []string{"Content-Type", "--data", "-F", "#"}},
		{"required", true, []string{"# curl's -F cannot send a form of no part", "multipart/form-data; boundary=LoupeFormBoundary", "--data-raw '--LoupeFormBoundary"}, []string{"-F '"}},
	} {
		op := &catalog.Operation{Method: "POST", Path: "/up", Body: &catalog.RequestBody{ContentType: "multipart/form-data", Required: tt.required,
			Schema: &catalog.Schema{Type: "object", Properties: []catalog.Property{{Name: "note", Schema: &catalog.Schema{Type: "string"}}}}}}
		req, errs := request.Build(op, "/proxy/x", request.Initial(op))
		if errs != nil {
			t.Fatalf("%s: %v", tt.name, errs)
		}
		if got := req.BodyText(); (got == "") == tt.required {
			t.Errorf("%s: the preview shows the body %q", tt.name, got)
		}
		got := Curl("http://h", req, nil)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: got\n%s\nwant %q in it", tt.name, got, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: got\n%s\nwant no %q", tt.name, got, n)
			}
		}
	}
}
