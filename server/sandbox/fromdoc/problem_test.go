package fromdoc

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// kindsSandbox is the sandbox of testdata/kinds.yaml.
func kindsSandbox(t *testing.T) *Sandbox {
	t.Helper()
	data, err := os.ReadFile("testdata/kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Load("testdata/kinds.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Name: "kinds", Document: d})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// call sends a request to s: headers as name, value pairs.
func call(s http.Handler, method, target, contentType, body string, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// TestBadRequestsAreProblems: each kind of bad request gets application/problem+json with
// its status and every wrong field named, with what was expected.
func TestBadRequestsAreProblems(t *testing.T) {
	s := kindsSandbox(t)
	good := []string{"X-Api-Key", "k", "X-Request-Id", "6f1c2f4e-8a38-4b1e-9d55-0c9a3b1f2d10", "Cookie", "region=eu"}
	tests := []struct {
		name, method, target, ct, body string
		headers                        []string
		status                         int
		fields                         []string // in:name
	}{
		{"path", "GET", "/things/0", "", "", good, 400, []string{"path:thingId"}},
		{"query", "GET", "/things/1?verbose=perhaps", "", "", good, 400, []string{"query:verbose"}},
		{"header", "GET", "/things/1", "", "", []string{"X-Api-Key", "k", "Cookie", "region=eu"}, 400, []string{"header:X-Request-Id"}},
		{"cookie", "GET", "/things/1", "", "", []string{"X-Api-Key", "k", "X-Request-Id", "6f1c2f4e-8a38-4b1e-9d55-0c9a3b1f2d10", "Cookie", "region=mars"}, 400, []string{"cookie:region"}},
		{"security", "GET", "/things/1", "", "", good[2:], 401, []string{"header:X-Api-Key"}},
		{"media type", "POST", "/things", "text/csv", "name,size\nx,1", good[:2], 415, []string{"header:Content-Type"}},
		{"no media type", "POST", "/things", "", `{"name":"Bolt","size":2}`, good[:2], 415, []string{"header:Content-Type"}},
		{"json body", "POST", "/things", "application/json", `{"name":"B","size":500}`, good[:2], 422, []string{"body:$.name", "body:$.size"}},
		{"missing property", "POST", "/things", "application/json", `{"size":5}`, good[:2], 422, []string{"body:$.name"}},
		{"unreadable json", "POST", "/things", "application/json", `{"name":`, good[:2], 400, []string{"body:$"}},
		{"form body", "POST", "/things", "application/x-www-form-urlencoded", "name=Bolt&size=0", good[:2], 422, []string{"body:$.size"}},
		{"multipart body", "POST", "/things", "multipart/form-data; boundary=XX", "--XX\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nB\r\n--XX\r\nContent-Disposition: form-data; name=\"size\"\r\n\r\n3\r\n--XX--\r\n", good[:2], 422, []string{"body:$.name"}},
		{"undocumented code", "GET", "/things/1", "", "", append([]string{"Prefer", "code=418"}, good...), 400, []string{"header:Prefer"}},
		{"unknown example", "GET", "/things/1", "", "", append([]string{"Prefer", "example=huge"}, good...), 400, []string{"header:Prefer"}},
		{"unacceptable", "GET", "/things/1", "", "", append([]string{"Accept", "text/html"}, good...), 406, []string{"header:Accept"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := call(s, tt.method, tt.target, tt.ct, tt.body, tt.headers...)
			if w.Code != tt.status || w.Header().Get("Content-Type") != "application/problem+json" {
				t.Fatalf("got %d %s %s; want %d application/problem+json", w.Code, w.Header().Get("Content-Type"), w.Body, tt.status)
			}
			var p problem
			if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range p.Errors {
				got = append(got, f.In+":"+f.Name)
				if f.Problem == "" || (f.Expected == "" && f.In != "body") {
					t.Errorf("field %s:%s: got problem %q, expected %q; want both said", f.In, f.Name, f.Problem, f.Expected)
				}
			}
			for _, want := range tt.fields {
				if !strings.Contains(strings.Join(got, " "), want) {
					t.Errorf("fields: got %v; want %s named (%s)", got, want, w.Body)
				}
			}
			if p.Status != tt.status || p.Detail == "" || p.Type == "" {
				t.Errorf("problem: got status %d, detail %q, type %q; want %d with a detail and a type", p.Status, p.Detail, p.Type, tt.status)
			}
		})
	}
}

// TestUnsatisfiableSchemaIs500: an operation whose schema no value satisfies answers 500 with
// a problem that names the schema and why, never a body that breaks it.
func TestUnsatisfiableSchemaIs500(t *testing.T) {
	s := kindsSandbox(t)
	w := call(s, "GET", "/ranges", "", "")
	if w.Code != http.StatusInternalServerError || w.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("got %d %s %s; want 500 application/problem+json", w.Code, w.Header().Get("Content-Type"), w.Body)
	}
	for _, want := range []string{"#/components/schemas/Impossible", "$.value", "minimum 10 is above the maximum 5", "getRange"} {
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("got %s; want it to say %q", w.Body, want)
		}
	}
}
