package request

import (
	"encoding/json"
	"strings"
	"testing"

	"loupe/app/catalog"
)

func f(v float64) *float64 { return &v }
func i64(v int64) *int64   { return &v }

func enum(vals ...string) []catalog.EnumValue {
	var out []catalog.EnumValue
	for _, v := range vals {
		b, _ := json.Marshal(v)
		out = append(out, catalog.EnumValue{Value: b})
	}
	return out
}

// searchOp resembles entities.search: a required query, bounded limit, repeatable types.
var searchOp = &catalog.Operation{
	ID: "entities.search", Method: "GET", Path: "/v1/entities:search",
	Parameters: []catalog.Parameter{
		{Name: "query", In: "query", Required: true, Schema: &catalog.Schema{Type: "string", MinLength: i64(1)}, Example: json.RawMessage(`"taylor"`)},
		{Name: "limit", In: "query", Schema: &catalog.Schema{Type: "integer", Minimum: f(1), Maximum: f(500), Default: json.RawMessage(`20`)}},
		{Name: "types", In: "query", Repeatable: true, Schema: &catalog.Schema{Type: "array", Items: &catalog.Schema{Type: "string", Enum: enum("Person", "Place")}}},
		{Name: "ids", In: "query", Schema: &catalog.Schema{Type: "array", Items: &catalog.Schema{Type: "string"}}},
		{Name: "prefix", In: "query", Schema: &catalog.Schema{Type: "boolean"}},
		{Name: "score", In: "query", Schema: &catalog.Schema{Type: "number", ExclusiveMinimum: f(0)}},
		{Name: "lang", In: "query", Schema: &catalog.Schema{Type: "string", Pattern: "^[a-z]{2}$"}},
		{Name: "X-Trace", In: "header", Schema: &catalog.Schema{Type: "string"}},
	},
}

var projectOp = &catalog.Operation{
	ID: "projects.get", Method: "GET", Path: "/v1/projects/{scriptId}/versions/{versionNumber}",
	Parameters: []catalog.Parameter{
		{Name: "scriptId", In: "path", Required: true, Schema: &catalog.Schema{Type: "string"}},
		{Name: "versionNumber", In: "path", Required: true, Schema: &catalog.Schema{Type: "integer"}},
	},
}

var chatOp = &catalog.Operation{
	ID: "chat.completions.create", Method: "POST", Path: "/v1/chat/completions",
	Body: &catalog.RequestBody{Required: true, ContentType: "application/json",
		Example: json.RawMessage(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`),
		Schema: &catalog.Schema{Type: "object", Properties: []catalog.Property{
			{Name: "model", Required: true, Schema: &catalog.Schema{Type: "string"}},
			{Name: "messages", Required: true, Schema: &catalog.Schema{Type: "array", MinItems: i64(1), Items: &catalog.Schema{
				Type: "object", Properties: []catalog.Property{
					{Name: "role", Required: true, Schema: &catalog.Schema{Type: "string", Enum: enum("user", "assistant", "system")}},
					{Name: "content", Schema: &catalog.Schema{AnyOf: []*catalog.Schema{{Type: "string"}, {Type: "array", Items: &catalog.Schema{Type: "object"}}}}},
				}}}},
			{Name: "temperature", Schema: &catalog.Schema{Type: "number", Minimum: f(0), Maximum: f(2)}},
			{Name: "n", Schema: &catalog.Schema{Type: "integer", Nullable: true}},
			{Name: "stream", Schema: &catalog.Schema{Type: "boolean"}},
		}}},
}

func TestBuild(t *testing.T) {
	tests := []struct {
		name     string
		op       *catalog.Operation
		params   map[string][]string
		body     string
		wantURL  string
		wantErrs []string // "key: path: message" prefixes
	}{
		{name: "a required query is sent", op: searchOp, params: map[string][]string{"query:query": {"taylor swift"}},
			wantURL: "/proxy/x/v1/entities:search?query=taylor+swift"},
		{name: "a missing required parameter is reported", op: searchOp, params: map[string][]string{"query:query": {""}},
			wantErrs: []string{"query:query: missing"}},
		{name: "an integer above its maximum is out of range", op: searchOp, params: map[string][]string{"query:query": {"a"}, "query:limit": {"501"}},
			wantErrs: []string{"query:limit: out of range: must be at most 500"}},
		{name: "an integer below its minimum is out of range", op: searchOp, params: map[string][]string{"query:query": {"a"}, "query:limit": {"0"}},
			wantErrs: []string{"query:limit: out of range: must be at least 1"}},
		{name: "a decimal is not an integer", op: searchOp, params: map[string][]string{"query:query": {"a"}, "query:limit": {"2.5"}},
			wantErrs: []string{"query:limit: not an integer"}},
		{name: "text is not an integer", op: searchOp, params: map[string][]string{"query:query": {"a"}, "query:limit": {"ten"}},
			wantErrs: []string{"query:limit: not an integer"}},
		{name: "text is not a number", op: searchOp, params: map[string][]string{"query:query": {"a"}, "query:score": {"x"}},
			wantErrs: []string{"query:score: not a number"}},
		{name: "an exclusive minimum excludes itself", op: searchOp, params: map[string][]string{"query:query": {"a"}, "query:score": {"0"}},
			wantErrs: []string{"query:score: out of range: must be greater than 0"}},
		{name: "a value outside the enum is reported", op: searchOp, params: map[string][]string{"query:query": {"a"}, "query:types": {"Person", "Thing"}},
			wantErrs: []string{"query:types: value 2 (Thing): must be one of Person, Place"}},
		{name: "a pattern mismatch is reported", op: searchOp, params: map[string][]string{"query:query": {"a"}, "query:lang": {"eng"}},
			wantErrs: []string{"query:lang: not in the accepted form"}},
		{name: "a boolean must be true or false", op: searchOp, params: map[string][]string{"query:query": {"a"}, "query:prefix": {"yes"}},
			wantErrs: []string{"query:prefix: must be true or false"}},
		{name: "every error is reported in form order", op: searchOp, params: map[string][]string{"query:limit": {"501"}, "query:score": {"-1"}},
			wantErrs: []string{"query:query: missing", "query:limit: out of range", "query:score: out of range"}},
		{name: "repeatable parameters are repeated and lists are comma-joined", op: searchOp,
			params:  map[string][]string{"query:query": {"a&b"}, "query:types": {"Person", "", "Place"}, "query:ids": {"x,1", "y"}, "query:prefix": {"true"}, "query:limit": {"10"}},
			wantURL: "/proxy/x/v1/entities:search?query=a%26b&limit=10&types=Person&types=Place&ids=x%2C1,y&prefix=true"},
		{name: "path parameters are substituted and escaped", op: projectOp,
			params:  map[string][]string{"path:scriptId": {"a/b c?d"}, "path:versionNumber": {"3"}},
			wantURL: "/proxy/x/v1/projects/a%2Fb%20c%3Fd/versions/3"},
		{name: "a missing path parameter is reported", op: projectOp, params: map[string][]string{"path:versionNumber": {"x"}},
			wantErrs: []string{"path:scriptId: missing", "path:versionNumber: not an integer"}},
		{name: "a valid body is sent as typed", op: chatOp, body: `{"model":"m","messages":[{"role":"user","content":"hi"}],"n":null}`,
			wantURL: "/proxy/x/v1/chat/completions"},
		{name: "a wrong enum value in the body names the field", op: chatOp, body: `{"model":"m","messages":[{"role":"bot"}]}`,
			wantErrs: []string{"body: messages[0].role: must be one of user, assistant, system"}},
		{name: "a missing body field names the field", op: chatOp, body: `{"messages":[{"role":"user"}]}`,
			wantErrs: []string{"body: model: missing"}},
		{name: "a wrong type in the body names the field", op: chatOp, body: `{"model":1,"messages":[{"role":"user"}],"temperature":"hot","stream":"yes"}`,
			wantErrs: []string{"body: model: must be a string, not an integer", "body: temperature: must be a number, not a string", "body: stream: must be a boolean"}},
		{name: "a number out of range in the body", op: chatOp, body: `{"model":"m","messages":[{"role":"user"}],"temperature":3}`,
			wantErrs: []string{"body: temperature: out of range: must be at most 2"}},
		{name: "a too short array in the body", op: chatOp, body: `{"model":"m","messages":[]}`,
			wantErrs: []string{"body: messages: needs at least 1 items"}},
		{name: "anyOf takes any alternative and reports the closest", op: chatOp, body: `{"model":"m","messages":[{"role":"user","content":5}]}`,
			wantErrs: []string{"body: messages[0].content: must be one of: string, array"}},
		{name: "null is refused unless nullable", op: chatOp, body: `{"model":null,"messages":[{"role":"user"}]}`,
			wantErrs: []string{"body: model: must be a string, not null"}},
		{name: "invalid JSON says where", op: chatOp, body: "{\n  \"model\": \"m\",\n  oops\n}",
			wantErrs: []string{"body: not JSON: invalid character 'o' looking for beginning of object key string (line 3, column 3)"}},
		{name: "truncated JSON says so", op: chatOp, body: `{"model":"m"`,
			wantErrs: []string{"body: not JSON: unexpected end of JSON"}},
		{name: "a required body cannot be blank", op: chatOp, body: "  ",
			wantErrs: []string{"body: required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, errs := Build(tt.op, "/proxy/x", State{Params: tt.params, Body: tt.body})
			var got []string
			for _, e := range errs {
				got = append(got, e.Key+": "+e.Error())
			}
			if len(got) != len(tt.wantErrs) {
				t.Fatalf("errors = %q, want %q", got, tt.wantErrs)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.wantErrs[i]) {
					t.Errorf("error %d = %q, want prefix %q", i, got[i], tt.wantErrs[i])
				}
			}
			if len(tt.wantErrs) > 0 {
				if req != nil {
					t.Errorf("got a request despite errors")
				}
				return
			}
			if req.URL != tt.wantURL {
				t.Errorf("URL = %q, want %q", req.URL, tt.wantURL)
			}
		})
	}
}

func TestBuildHeadersAndBody(t *testing.T) {
	req, errs := Build(searchOp, "/p", State{Params: map[string][]string{"query:query": {"q"}, "header:X-Trace": {"abc"}}})
	if errs != nil || len(req.Headers) != 1 || req.Headers[0].Name != "X-Trace" || req.Headers[0].Value != "abc" || req.Body != nil {
		t.Fatalf("got %+v %v", req, errs)
	}
	req, errs = Build(chatOp, "/p", State{Body: "\n" + `{"model":"m","messages":[{"role":"user"}]}` + "\n"})
	if errs != nil || req.Method != "POST" || string(req.Body) != `{"model":"m","messages":[{"role":"user"}]}` ||
		len(req.Headers) != 1 || req.Headers[0].Value != "application/json" {
		t.Fatalf("got %+v %v", req, errs)
	}
	if req.Query != nil || req.Path != "/v1/chat/completions" {
		t.Fatalf("got %+v", req)
	}
}

func TestInitial(t *testing.T) {
	st := Initial(searchOp)
	if got := st.Params["query:query"]; len(got) != 1 || got[0] != "taylor" {
		t.Errorf("query = %q, want the example", got)
	}
	if _, ok := st.Params["query:limit"]; ok {
		t.Errorf("an optional parameter with a default is prefilled")
	}
	prefilled := &catalog.Operation{Parameters: []catalog.Parameter{
		{Name: "project", In: "query", Prefill: true, Schema: &catalog.Schema{Type: "string"}, Example: []byte(`"pip"`)},
		{Name: "section", In: "query", Schema: &catalog.Schema{Type: "string"}, Example: []byte(`"intro"`)},
	}}
	st = Initial(prefilled)
	if got := st.Params["query:project"]; len(got) != 1 || got[0] != "pip" {
		t.Errorf("project = %q; want the example of a Prefill parameter", got)
	}
	if _, ok := st.Params["query:section"]; ok {
		t.Errorf("an optional parameter without Prefill is prefilled")
	}
	st = Initial(chatOp)
	if !strings.Contains(st.Body, "\n  \"messages\": [") {
		t.Errorf("body is not the indented example: %q", st.Body)
	}
	noExample := &catalog.Operation{Body: &catalog.RequestBody{Schema: chatOp.Body.Schema}}
	st = Initial(noExample)
	if _, errs := Build(noExample, "", st); len(errs) != 0 || !strings.HasPrefix(st.Body, "{\n  \"model\": \"\",") {
		t.Errorf("skeleton body: %q, errors %v", st.Body, errs)
	}
}

func TestStateEqual(t *testing.T) {
	a := State{Params: map[string][]string{"query:a": {"1", ""}, "query:b": {""}}, Body: "{}\n"}
	b := State{Params: map[string][]string{"query:a": {"1"}}, Body: "{}"}
	if !a.Equal(b) || !a.Clone().Equal(a) {
		t.Fatal("states differing only by empty values are not equal")
	}
	if a.Equal(State{Params: map[string][]string{"query:a": {"2"}}, Body: "{}"}) {
		t.Fatal("different states are equal")
	}
	if got := a.Keys(); len(got) != 1 || got[0] != "query:a" {
		t.Fatalf("Keys = %q", got)
	}
}

func TestPreview(t *testing.T) {
	req := Preview(projectOp, "/p", State{Params: map[string][]string{"path:versionNumber": {"x y"}}})
	if req.URL != "/p/v1/projects/{scriptId}/versions/x%20y" {
		t.Errorf("URL = %q", req.URL)
	}
	req = Preview(chatOp, "/p", State{Body: "{oops"})
	if string(req.Body) != "{oops" {
		t.Errorf("Body = %q", req.Body)
	}
}
