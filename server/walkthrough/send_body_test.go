package walkthrough

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/server/walkthrough/flow"
)

// TestExecutorSendsWhatTheFormSends: a step's payload for a urlencoded, multipart, XML or
// text body goes out exactly as the operation page's form sends the same values, and cookie
// parameters go to Loupe's proxy as request.CookieHeader.
func TestExecutorSendsWhatTheFormSends(t *testing.T) {
	form := &catalog.Schema{Type: "object", Properties: []catalog.Property{
		{Name: "name", Schema: &catalog.Schema{Type: "string"}},
		{Name: "tags", Schema: &catalog.Schema{Type: "array", Items: &catalog.Schema{Type: "string"}}},
		{Name: "file", Schema: &catalog.Schema{Type: "string", Format: "binary"}},
	}}
	api := &catalog.API{Slug: "x", Operations: []catalog.Operation{
		{ID: "urlencoded", Method: "POST", Path: "/u", Body: &catalog.RequestBody{ContentType: "application/x-www-form-urlencoded", Schema: form}},
		{ID: "multipart", Method: "POST", Path: "/m", Body: &catalog.RequestBody{ContentType: "multipart/form-data", Schema: form}},
		{ID: "xml", Method: "POST", Path: "/x", Body: &catalog.RequestBody{ContentType: "application/xml"}},
		{ID: "text", Method: "POST", Path: "/t", Body: &catalog.RequestBody{ContentType: "text/plain"},
			Parameters: []catalog.Parameter{{Name: "sid", In: "cookie", Schema: &catalog.Schema{Type: "string"}}}},
	}}
	type got struct {
		ct, cookie string
		body       []byte
	}
	seen := make(chan got, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		seen <- got{r.Header.Get("Content-Type"), r.Header.Get(request.CookieHeader), b}
	}))
	defer up.Close()
	payload := map[string]any{"name": "Rex", "tags": []any{"a", "b"}, "file": "bytes"}
	tests := []struct {
		op      string
		payload any
		params  map[string]any
		state   request.State
	}{
		{"urlencoded", payload, nil, request.State{Body: "{\n  \"file\": \"bytes\",\n  \"name\": \"Rex\",\n  \"tags\": [\n    \"a\",\n    \"b\"\n  ]\n}"}},
		{"multipart", payload, nil, request.State{Body: `{"file":"bytes","name":"Rex","tags":["a","b"]}`}},
		{"xml", "<pet><name>Rex</name></pet>", nil, request.State{Body: "<pet><name>Rex</name></pet>"}},
		{"text", "hello\n", map[string]any{"sid": "s1"}, request.State{Body: "hello\n", Params: map[string][]string{"cookie:sid": {"s1"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			base := up.URL + "/proxy/x"
			x := &Executor{Base: func(*catalog.API) string { return base }}
			op := api.Operation(tt.op)
			call := &flow.Call{Operation: flow.Operation{Source: "x", ID: tt.op, Method: op.Method, Path: op.Path}, Body: &flow.BodyValue{Value: tt.payload}}
			for name, v := range tt.params {
				call.Params = append(call.Params, flow.ParamValue{Name: name, In: "cookie", Value: v})
			}
			w := &Walkthrough{APIs: map[string]*catalog.API{"x": api}}
			if resp := x.Send(context.Background(), w, call); resp.Err != "" {
				t.Fatal(resp.Err)
			}
			g := <-seen
			want, errs := request.Build(op, base, tt.state)
			if errs != nil {
				t.Fatal(errs)
			}
			if !bytes.Equal(g.body, want.Body) || g.ct != want.Headers[len(want.Headers)-1].Value {
				t.Errorf("sent %q (%s); want %q (%s)", g.body, g.ct, want.Body, want.Headers[len(want.Headers)-1].Value)
			}
			if tt.op == "text" && g.cookie != "sid=s1" {
				t.Errorf("cookie header %q; want sid=s1", g.cookie)
			}
		})
	}
}
