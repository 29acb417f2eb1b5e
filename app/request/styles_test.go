package request

import (
	"strings"
	"testing"

	"loupe/app/catalog"
)

func bptr(b bool) *bool { return &b }

// TestStyles writes the OpenAPI specification's own style examples (3.0.3, "Style Examples":
// color as "blue", ["blue","black","brown"] and {"R":100,"G":200,"B":150}) through Build.
func TestStyles(t *testing.T) {
	str := &catalog.Schema{Type: "string"}
	arr := &catalog.Schema{Type: "array", Items: str}
	obj := &catalog.Schema{Type: "object", Properties: []catalog.Property{{Name: "R"}, {Name: "G"}, {Name: "B"}}}
	blue := []string{"blue"}
	list := []string{"blue", "black", "brown"}
	rgb := []string{`{"R":100,"G":200,"B":150}`}
	tests := []struct {
		in, style string
		explode   bool
		schema    *catalog.Schema
		vals      []string
		want      string // the path after /p/, the query after ?, or the header's value
	}{
		{"path", "matrix", false, str, blue, ";color=blue"},
		{"path", "matrix", false, arr, list, ";color=blue,black,brown"},
		{"path", "matrix", false, obj, rgb, ";color=R,100,G,200,B,150"},
		{"path", "matrix", true, arr, list, ";color=blue;color=black;color=brown"},
		{"path", "matrix", true, obj, rgb, ";R=100;G=200;B=150"},
		{"path", "label", false, str, blue, ".blue"},
		{"path", "label", false, arr, list, ".blue,black,brown"},
		{"path", "label", false, obj, rgb, ".R,100,G,200,B,150"},
		{"path", "label", true, arr, list, ".blue.black.brown"},
		{"path", "label", true, obj, rgb, ".R=100.G=200.B=150"},
		{"path", "simple", false, arr, list, "blue,black,brown"},
		{"path", "simple", false, obj, rgb, "R,100,G,200,B,150"},
		{"path", "simple", true, obj, rgb, "R=100,G=200,B=150"},
		{"query", "form", false, str, blue, "color=blue"},
		{"query", "form", false, arr, list, "color=blue,black,brown"},
		{"query", "form", false, obj, rgb, "color=R,100,G,200,B,150"},
		{"query", "form", true, arr, list, "color=blue&color=black&color=brown"},
		{"query", "form", true, obj, rgb, "R=100&G=200&B=150"},
		{"query", "spaceDelimited", false, arr, list, "color=blue%20black%20brown"},
		{"query", "spaceDelimited", false, obj, rgb, "color=R%20100%20G%20200%20B%20150"},
		{"query", "pipeDelimited", false, arr, list, "color=blue|black|brown"},
		{"query", "pipeDelimited", false, obj, rgb, "color=R|100|G|200|B|150"},
		{"query", "deepObject", true, obj, rgb, "color[R]=100&color[G]=200&color[B]=150"},
		{"header", "simple", false, arr, list, "blue,black,brown"},
		{"header", "simple", false, obj, rgb, "R,100,G,200,B,150"},
		{"header", "simple", true, obj, rgb, "R=100,G=200,B=150"},
		{"cookie", "form", false, arr, list, "color=blue,black,brown"},
		{"cookie", "form", true, obj, rgb, "R=100; G=200; B=150"},
	}
	for _, tt := range tests {
		t.Run(tt.in+" "+tt.style+" "+strings.Join(tt.vals, ","), func(t *testing.T) {
			p := catalog.Parameter{Name: "color", In: tt.in, Style: tt.style, Explode: bptr(tt.explode), Schema: tt.schema, Required: true}
			op := &catalog.Operation{Method: "GET", Path: "/p", Parameters: []catalog.Parameter{p}}
			if tt.in == "path" {
				op.Path = "/p/{color}"
			}
			req, errs := Build(op, "", State{Params: map[string][]string{Key(&p): tt.vals}})
			if errs != nil {
				t.Fatal(errs)
			}
			var got string
			switch tt.in {
			case "path":
				got = strings.TrimPrefix(req.URL, "/p/")
			case "query":
				_, got, _ = strings.Cut(req.URL, "?")
			default:
				got = req.Headers[0].Value
			}
			if got != tt.want {
				t.Errorf("got %q; want %q", got, tt.want)
			}
		})
	}
}

// TestPathKeys fills the path keys real documents write: reserved expansion and Google's
// templates keep a name's slashes, a plain variable escapes them, allowReserved on a path
// parameter captures, '#' labels are not sent, a key's own query is filled.
func TestPathKeys(t *testing.T) {
	str := &catalog.Schema{Type: "string"}
	tests := []struct {
		key       string
		params    []catalog.Parameter
		values    map[string][]string
		wantURL   string
		wantQuery string
	}{
		{"/v1/{+name}", []catalog.Parameter{{Name: "name", In: "path", Schema: str}},
			map[string][]string{"path:name": {"projects/p 1/locations/l"}}, "/v1/projects/p%201/locations/l", ""},
		{"/v1/{parent=projects/*}/topics", []catalog.Parameter{{Name: "parent", In: "path", Schema: str}},
			map[string][]string{"path:parent": {"projects/p"}}, "/v1/projects%2Fp/topics", ""},
		{"/b/{bucket}/o/{object}", []catalog.Parameter{{Name: "bucket", In: "path", Schema: str}, {Name: "object", In: "path", Schema: str}},
			map[string][]string{"path:bucket": {"b"}, "path:object": {"dir/file é.txt"}}, "/b/b/o/dir%2Ffile%20%C3%A9.txt", ""},
		{"/repos/{path}", []catalog.Parameter{{Name: "path", In: "path", AllowReserved: true, Schema: str}},
			map[string][]string{"path:path": {"a/b/c"}}, "/repos/a/b/c", ""},
		{"/#Action=DescribeInstances", []catalog.Parameter{{Name: "Action", In: "query", Schema: str}, {Name: "Version", In: "query", Schema: str}},
			map[string][]string{"query:Action": {"DescribeInstances"}, "query:Version": {"2016-11-15"}}, "/?Action=DescribeInstances&Version=2016-11-15", "Action=DescribeInstances&Version=2016-11-15"},
		{"/files/{file_id}#add_shared_link", []catalog.Parameter{{Name: "file_id", In: "path", Schema: str}, {Name: "fields", In: "query", Schema: str}},
			map[string][]string{"path:file_id": {"12"}, "query:fields": {"shared_link"}}, "/files/12?fields=shared_link", "fields=shared_link"},
		{"/alerts?lat={lat}&lon={lon}", []catalog.Parameter{{Name: "lat", In: "path", Schema: str}, {Name: "lon", In: "path", Schema: str}, {Name: "key", In: "query", Schema: str}},
			map[string][]string{"path:lat": {"38.5"}, "path:lon": {"-78.5"}, "query:key": {"k"}}, "/alerts?lat=38.5&lon=-78.5&key=k", "lat=38.5&lon=-78.5&key=k"},
		{"/search", []catalog.Parameter{{Name: "q", In: "query", AllowReserved: true, Schema: str}, {Name: "r", In: "query", Schema: str}},
			map[string][]string{"query:q": {"a/b:c?d&e"}, "query:r": {"a/b"}}, "/search?q=a/b:c?d%26e&r=a%2Fb", "q=a/b:c?d%26e&r=a%2Fb"},
		{"/filter", []catalog.Parameter{{Name: "where", In: "query", ContentType: "application/json", Schema: &catalog.Schema{Type: "object"}}},
			map[string][]string{"query:where": {"{\n \"a\": 1 }"}}, "/filter?where=%7B%22a%22%3A1%7D", "where=%7B%22a%22%3A1%7D"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			op := &catalog.Operation{Method: "GET", Path: tt.key, Parameters: tt.params}
			req, errs := Build(op, "", State{Params: tt.values})
			if errs != nil {
				t.Fatal(errs)
			}
			if req.URL != tt.wantURL {
				t.Errorf("URL = %q; want %q", req.URL, tt.wantURL)
			}
			_, q, _ := strings.Cut(req.URL, "?")
			if q != tt.wantQuery {
				t.Errorf("query = %q; want %q", q, tt.wantQuery)
			}
		})
	}
}

// TestCookiesAndHeaders: every cookie parameter goes in one Cookie header, escaped; a header
// value with a line break is refused.
func TestCookiesAndHeaders(t *testing.T) {
	op := &catalog.Operation{Method: "GET", Path: "/c", Parameters: []catalog.Parameter{
		{Name: "session", In: "cookie", Schema: &catalog.Schema{Type: "string"}},
		{Name: "theme", In: "cookie", Schema: &catalog.Schema{Type: "string"}},
		{Name: "Accept-Encoding", In: "header", Schema: &catalog.Schema{Type: "string"}},
	}}
	req, errs := Build(op, "", State{Params: map[string][]string{"cookie:session": {"a b;c"}, "cookie:theme": {"dark"}, "header:Accept-Encoding": {"gzip"}}})
	if errs != nil {
		t.Fatal(errs)
	}
	var got []string
	for _, h := range req.Headers {
		got = append(got, h.Name+": "+h.Value)
	}
	if want := "Accept-Encoding: gzip|Cookie: session=a%20b%3Bc; theme=dark"; strings.Join(got, "|") != want {
		t.Errorf("headers = %q; want %q", strings.Join(got, "|"), want)
	}
	_, errs = Build(op, "", State{Params: map[string][]string{"header:Accept-Encoding": {"gzip\r\nX-Evil: 1"}}})
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "line break") {
		t.Errorf("errors = %v; want a line break refused", errs)
	}
}
