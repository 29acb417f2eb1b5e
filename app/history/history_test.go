package history

import (
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/permalink"
	"loupe/app/request"
)

func testOp() (*catalog.API, *catalog.Operation) {
	api := &catalog.API{Slug: "acme", Security: []catalog.SecurityScheme{
		{Name: "k", Type: "apiKey", In: "header", ParamName: "X-Acme-Pass"},
	}}
	op := &catalog.Operation{ID: "things.list", Method: "GET", Path: "/v1/things", Parameters: []catalog.Parameter{
		{Name: "q", In: "query", Schema: &catalog.Schema{Type: "string"}},
		{Name: "api_key", In: "query", Schema: &catalog.Schema{Type: "string"}},
		{Name: "X-Acme-Pass", In: "header", Schema: &catalog.Schema{Type: "string"}},
		{Name: "Authorization", In: "header", Schema: &catalog.Schema{Type: "string"}},
		{Name: "X-Trace", In: "header", Schema: &catalog.Schema{Type: "string"}},
	}}
	return api, op
}

func TestNewDropsCredentials(t *testing.T) {
	api, op := testOp()
	st := request.State{Params: map[string][]string{
		"query:q": {"red shoes"}, "query:api_key": {"s3cr3t1"}, "header:X-Acme-Pass": {"s3cr3t2"},
		"header:Authorization": {"Bearer s3cr3t3"}, "header:X-Trace": {"t-1"},
	}}
	e := New(api, op, "/proxy/acme", st)
	all := Encode([]Entry{e})
	if strings.Contains(all, "s3cr3t") {
		t.Errorf("got %s; want no credential", all)
	}
	if e.URL != "/proxy/acme/v1/things?q=red+shoes" && e.URL != "/proxy/acme/v1/things?q=red%20shoes" {
		t.Errorf("URL: got %s; want the query without api_key", e.URL)
	}
	got, ok, err := permalink.Decode(op, e.Form)
	if !ok || err != nil || got.Params["query:q"][0] != "red shoes" || got.Params["header:X-Trace"][0] != "t-1" {
		t.Errorf("the form reopens as %v (%v %v); want q and X-Trace kept", got, ok, err)
	}
	if e.Link() != "/acme/things.list#"+e.Form {
		t.Errorf("Link: got %s", e.Link())
	}
}

func TestAddKeepsTheNewest200(t *testing.T) {
	var list []Entry
	for i := 0; i < 250; i++ {
		list = Add(list, Entry{Time: int64(i)})
	}
	if len(list) != Max || list[0].Time != 249 || list[Max-1].Time != 50 {
		t.Errorf("got %d entries, first %d, last %d; want 200, 249, 50", len(list), list[0].Time, list[len(list)-1].Time)
	}
	if got := Decode(Encode(list)); len(got) != Max || got[0] != list[0] {
		t.Errorf("Decode(Encode): got %d entries", len(got))
	}
}

func TestSearch(t *testing.T) {
	list := []Entry{
		{API: "entities", Op: "entities.search", Method: "GET", URL: "/proxy/entities/v1/entities:search?query=paris", Status: 200},
		{API: "chat", Op: "createChatCompletion", Method: "POST", URL: "/proxy/chat/v1/chat/completions", Status: 401},
		{API: "docs", Op: "listProjects", Method: "GET", Status: 0, Error: "cancelled"},
	}
	for _, tc := range []struct{ query, want string }{
		{"", "entities.search createChatCompletion listProjects"},
		{"PARIS", "entities.search"},
		{"post 401", "createChatCompletion"},
		{"get cancelled", "listProjects"},
		{"nothing", ""},
	} {
		var ids []string
		for _, e := range Search(list, tc.query) {
			ids = append(ids, e.Op)
		}
		if got := strings.Join(ids, " "); got != tc.want {
			t.Errorf("Search(%q): got %q; want %q", tc.query, got, tc.want)
		}
	}
}

func TestNewDropsALargeForm(t *testing.T) {
	op := &catalog.Operation{ID: "put", Method: "PUT", Path: "/x", Body: &catalog.RequestBody{ContentType: "text/plain"}}
	e := New(&catalog.API{Slug: "a"}, op, "/proxy/a", request.State{Body: strings.Repeat("x", MaxForm+1)})
	if e.Form != "" || !e.Dropped {
		t.Errorf("got form of %d bytes, dropped %v; want none, dropped", len(e.Form), e.Dropped)
	}
	big := NewView(&catalog.API{Slug: "chat"}, &catalog.Operation{ID: "c", Method: "POST"}, "/proxy/chat/c", strings.Repeat("y", MaxForm+1))
	if big.Form != "" || !big.Dropped {
		t.Errorf("NewView: got form of %d bytes, dropped %v; want none, dropped", len(big.Form), big.Dropped)
	}
	if d := Decode("not json"); d != nil {
		t.Errorf("Decode of garbage: got %v", d)
	}
}

func TestSentReadsTheURLBackIntoTheForm(t *testing.T) {
	api := &catalog.API{Slug: "script", Security: []catalog.SecurityScheme{{Name: "k", Type: "apiKey", In: "query", ParamName: "key"}}}
	scriptID := catalog.Parameter{Name: "scriptId", In: "path", Required: true, Schema: &catalog.Schema{Type: "string"}}
	tests := []struct {
		op         *catalog.Operation
		url, body  string
		wantParams map[string][]string
	}{
		{&catalog.Operation{ID: "projects.getContent", Method: "GET", Path: "/v1/projects/{scriptId}/content", Parameters: []catalog.Parameter{scriptID,
			{Name: "versionNumber", In: "query", Schema: &catalog.Schema{Type: "integer"}}, {Name: "key", In: "query", Schema: &catalog.Schema{Type: "string"}}}},
			"/proxy/script/v1/projects/a%2Fb%20c/content?versionNumber=3&key=s3cr3t", "",
			map[string][]string{"path:scriptId": {"a/b c"}, "query:versionNumber": {"3"}}},
		{&catalog.Operation{ID: "scripts.run", Method: "POST", Path: "/v1/scripts/{scriptId}:run", Parameters: []catalog.Parameter{scriptID}, Body: &catalog.RequestBody{ContentType: "application/json"}},
			"/proxy/script/v1/scripts/abc123:run", `{"function": "main"}`,
			map[string][]string{"path:scriptId": {"abc123"}}},
	}
	for _, tt := range tests {
		e := Sent(api, tt.op, "/proxy/script", tt.url, tt.body)
		got, ok, err := permalink.Decode(tt.op, e.Form)
		if !ok || err != nil {
			t.Fatalf("%s: the form %q does not reopen: %v", tt.op.ID, e.Form, err)
		}
		for k, want := range tt.wantParams {
			if strings.Join(got.Params[k], ",") != strings.Join(want, ",") {
				t.Errorf("%s: %s = %q; want %q", tt.op.ID, k, got.Params[k], want)
			}
		}
		if strings.Contains(Encode([]Entry{e}), "s3cr3t") || len(got.Params["query:key"]) > 0 {
			t.Errorf("%s: got %+v; want no credential", tt.op.ID, e)
		}
		if strings.TrimSpace(got.Body) != strings.TrimSpace(tt.body) || e.Method != tt.op.Method || !strings.HasPrefix(e.URL, "/proxy/script/v1/") {
			t.Errorf("%s: got %+v, body %q; want the method, the URL and the body sent", tt.op.ID, e, got.Body)
		}
	}
}
