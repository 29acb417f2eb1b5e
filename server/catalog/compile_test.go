package catalog

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"loupe/app/catalog"
)

// loadGood loads the fixture documents in testdata/good.
func loadGood(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := Load(os.DirFS("testdata/good"))
	if err != nil {
		t.Fatalf("Load(testdata/good): %v", err)
	}
	return c
}

// goodOp returns an operation of the fixtures, failing the test when it is missing.
func goodOp(t *testing.T, c *catalog.Catalog, slug, id string) *catalog.Operation {
	t.Helper()
	a := c.API(slug)
	if a == nil {
		t.Fatalf("API %q missing", slug)
	}
	op := a.Operation(id)
	if op == nil {
		t.Fatalf("operation %s/%s missing", slug, id)
	}
	return op
}

func TestLoadOrderAndVersion(t *testing.T) {
	c := loadGood(t)
	var got []string
	for _, a := range c.APIs {
		got = append(got, a.Slug)
	}
	if want := "chat pagination zoo"; strings.Join(got, " ") != want {
		t.Errorf("got APIs %v; want %s (known slugs in table order, then the others)", got, want)
	}
	if len(c.Version) != 12 {
		t.Errorf("got version %q; want 12 hex digits", c.Version)
	}
	if again := loadGood(t); again.Version != c.Version {
		t.Errorf("got versions %q and %q for the same content; want equal", c.Version, again.Version)
	}
}

func TestCompileOperation(t *testing.T) {
	c := loadGood(t)
	chat := c.API("chat")
	op := goodOp(t, c, "chat", "createChatCompletion")
	tests := []struct {
		name      string
		got, want any
	}{
		{"title", chat.Title, "Chat fixture"},
		{"servers", strings.Join(chat.Servers, ","), "https://api.example.com"},
		{"tags", len(chat.Tags), 1},
		{"scheme", chat.Security[0].Name + " " + chat.Security[0].Type + " " + chat.Security[0].Scheme, "bearer http bearer"},
		{"method", op.Method, "POST"},
		{"path", op.Path, "/v1/chat/completions"},
		{"viewer", op.Viewer, catalog.ViewerChat},
		{"streaming", op.Streaming, true},
		{"source", op.Source, catalog.SourceContract},
		{"security from document", op.Security[0].Schemes[0].Scheme, "bearer"},
		{"extension", string(op.Extensions["x-loupe-events"]), `[{"name":"delta"}]`},
		{"body content type", op.Body.ContentType, "application/json"},
		{"body required", op.Body.Required, true},
		{"body example keeps order", string(op.Body.Example), `{"model":"m1","messages":[{"role":"user","content":"Hello"}]}`},
		{"body ref", op.Body.Schema.Ref, "ChatRequest"},
		{"responses (one per content type)", len(op.Responses), 3},
		{"first of examples", string(op.Responses[0].Example), `{"id":"c1","object":"chat.completion","created":1700000000}`},
		{"sse example is a string", string(op.Responses[1].Example), `"data: {\"id\":\"c1\"}\n\ndata: [DONE]\n"`},
		{"response source", op.Responses[2].Source, catalog.SourcePublicAPI},
		{"response status", op.Responses[2].Status, "4XX"},
		{"allOf keeps the single ref", op.Responses[2].Schema.Ref, "Error"},
		{"allOf merges properties", propNames(op.Responses[2].Schema), "error code"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v; want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestCompileSchema(t *testing.T) {
	c := loadGood(t)
	op := goodOp(t, c, "chat", "createChatCompletion")
	body := op.Body.Schema
	completion := op.Responses[0].Schema
	tests := []struct {
		name      string
		got, want any
	}{
		{"properties in order", propNames(body), "model messages stream tools tool_choice"},
		{"required", prop(body, "model").Required, true},
		{"not required", prop(body, "stream").Required, false},
		{"default", string(prop(body, "stream").Schema.Default), "false"},
		{"property source", prop(body, "tools").Schema.Source, catalog.SourcePublicAPI},
		{"property default source", prop(body, "model").Schema.Source, catalog.SourceContract},
		{"inherited source", prop(prop(body, "tools").Schema.Items, "type").Schema.Source, catalog.SourcePublicAPI},
		{"inherited two levels", prop(prop(prop(body, "tools").Schema.Items, "function").Schema, "name").Schema.Source, catalog.SourcePublicAPI},
		{"marked below", prop(prop(prop(body, "tools").Schema.Items, "function").Schema, "strict").Schema.Source, catalog.SourceContract},
		{"component keeps its own", prop(prop(prop(body, "tools").Schema.Items, "message").Schema, "role").Schema.Source, catalog.SourceContract},
		{"items ref", prop(body, "messages").Schema.Items.Ref, "Message"},
		{"enum", enumValues(prop(prop(body, "messages").Schema.Items, "role").Schema), "user assistant system"},
		{"enum meaning markdown", prop(body, "tool_choice").Schema.OneOf[0].Enum[1].DescriptionHTML, "The model <em>decides</em>."},
		{"enum without meaning", prop(body, "tool_choice").Schema.OneOf[0].Enum[2].DescriptionHTML, ""},
		{"const", string(prop(completion, "object").Schema.Const), `"chat.completion"`},
		{"type list with null", prop(completion, "finish_reason").Schema.Type + " " + boolText(prop(completion, "finish_reason").Schema.Nullable), "string nullable"},
		{"oneOf ref or null", refText(prop(completion, "previous").Schema), "Completion recursive nullable"},
		{"recursive ref with siblings", refText(prop(completion, "parent").Schema), "Completion recursive"},
		{"sibling description", prop(completion, "parent").Schema.DescriptionHTML, "<p>The completion this one continues.</p>"},
		{"sibling source", prop(completion, "parent").Schema.Source, catalog.SourcePublicAPI},
		{"recursive through items", refText(prop(prop(completion, "thread").Schema, "replies").Schema.Items), "Thread recursive"},
		{"recursive stub is empty", len(prop(completion, "parent").Schema.Properties), 0},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v; want %v", tt.name, tt.got, tt.want)
		}
	}
	if _, err := json.Marshal(c); err != nil {
		t.Errorf("got %v encoding the catalog; want none (no cycles)", err)
	}
}

func TestCompileParameters(t *testing.T) {
	c := loadGood(t)
	op := goodOp(t, c, "pagination", "listChildren")
	var names []string
	for _, p := range op.Parameters {
		names = append(names, p.In+":"+p.Name)
	}
	if got, want := strings.Join(names, " "), "path:id query:fields query:limit query:ids query:expand query:pageToken header:X-Trace"; got != want {
		t.Errorf("got parameters %s; want %s (path-level first, overridden in place)", got, want)
	}
	param := func(name string) catalog.Parameter {
		for _, p := range op.Parameters {
			if p.Name == name {
				return p
			}
		}
		t.Fatalf("parameter %s missing", name)
		return catalog.Parameter{}
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"path required", param("id").Required, true},
		{"override source", param("fields").Source, catalog.SourcePublicAPI},
		{"$ref parameter", param("limit").Schema.Type, "integer"},
		{"max", *param("limit").Schema.Maximum, 500.0},
		{"default", string(param("limit").Schema.Default), "20"},
		{"exploded array repeatable", param("ids").Repeatable, true},
		{"explode false not repeatable", param("expand").Repeatable, false},
		{"explode false keeps array", param("expand").Schema.Type, "array"},
		{"explode false enum", enumValues(param("expand").Schema.Items), "all open"},
		{"header array not repeatable", param("X-Trace").Repeatable, false},
		{"viewer", op.Viewer, catalog.ViewerPaged},
		{"pagination", op.Pagination.Style + " " + op.Pagination.Results + " " + op.Pagination.Next + " " + op.Pagination.TokenParam, "page-token items nextPageToken pageToken"},
		{"pagination config", string(op.Extensions["x-loupe-pagination-config"]), `{"page_size":10}`},
		{"non-loupe extension dropped", len(op.Extensions), 1},
		{"security alternatives", len(op.Security), 2},
		{"oauth scopes", strings.Join(op.Security[0].Schemes[0].Scopes, " "), "items.read"},
		{"schemes together", op.Security[0].Schemes[1].Scheme, "token"},
		{"optional security", len(op.Security[1].Schemes), 0},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v; want %v", tt.name, tt.got, tt.want)
		}
	}
	del := goodOp(t, c, "pagination", "deleteChildren")
	if del.Security != nil || !del.Deprecated || del.Viewer != catalog.ViewerJSON {
		t.Errorf("got security %v deprecated %v viewer %q; want none, true, json", del.Security, del.Deprecated, del.Viewer)
	}
	schemes := c.API("pagination").Security
	if got, want := schemes[0].Flows[0].Scopes[1].Name, "items.write"; got != want {
		t.Errorf("got scope %q; want %q", got, want)
	}
	if got, want := schemes[1].In+" "+schemes[1].ParamName, "query access_token"; got != want {
		t.Errorf("got api key %q; want %q", got, want)
	}
}

func TestMarkdownSanitized(t *testing.T) {
	c := loadGood(t)
	chat := c.API("chat")
	tests := []struct {
		name, html, want string
		present          bool
	}{
		{"strong", chat.DescriptionHTML, "<strong>answers</strong>", true},
		{"external link", chat.DescriptionHTML, `<a href="https://example.com/docs" rel="nofollow noopener" target="_blank">`, true},
		{"local link stays plain", chat.DescriptionHTML, `<a href="/chat">`, true},
		{"code language class", chat.GuideHTML, `<code class="language-json">`, true},
		{"table", chat.GuideHTML, "<td>", true},
		{"script in description", chat.Operations[0].DescriptionHTML, "<script", false},
		{"script in guide", chat.GuideHTML, "<script", false},
		{"guide heading", chat.GuideHTML, `<h1 id="chat">Chat</h1>`, true},
	}
	for _, tt := range tests {
		if got := strings.Contains(tt.html, tt.want); got != tt.present {
			t.Errorf("%s: got contains(%q) = %v in %q; want %v", tt.name, tt.want, got, tt.html, tt.present)
		}
	}
}

func propNames(s *catalog.Schema) string {
	var names []string
	for _, p := range s.Properties {
		names = append(names, p.Name)
	}
	return strings.Join(names, " ")
}

func prop(s *catalog.Schema, name string) catalog.Property {
	if s != nil {
		if i := propertyIndex(s.Properties, name); i >= 0 {
			return s.Properties[i]
		}
	}
	return catalog.Property{Schema: &catalog.Schema{}}
}

func enumValues(s *catalog.Schema) string {
	var vals []string
	for _, e := range s.Enum {
		vals = append(vals, strings.Trim(string(e.Value), `"`))
	}
	return strings.Join(vals, " ")
}

func refText(s *catalog.Schema) string {
	out := s.Ref
	if s.Recursive {
		out += " recursive"
	}
	if s.Nullable {
		out += " nullable"
	}
	return out
}

func boolText(b bool) string {
	if b {
		return "nullable"
	}
	return "not nullable"
}
