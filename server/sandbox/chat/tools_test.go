package chat

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// validate checks args against schema with a full JSON Schema validator
// (formats asserted).
func validate(t *testing.T, schema, args string) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("tool.json", doc); err != nil {
		t.Fatalf("add schema: %v", err)
	}
	sch, err := c.Compile("tool.json")
	if err != nil {
		t.Fatalf("compile schema: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
	if err != nil {
		t.Fatalf("arguments %q are not JSON: %v", args, err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("arguments %s do not validate: %v", args, err)
	}
}

func TestToolArguments(t *testing.T) {
	tests := []struct {
		name, schema, prompt, want string // want: exact arguments, or "" to only validate
	}{
		{"weather", `{"type":"object","properties":{"location":{"type":"string"},"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["location","unit"],"additionalProperties":false}`,
			"What's the weather in Paris today?", `{"location":"Paris","unit":"celsius"}`},
		{"number from prompt", `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1,"maximum":10}},"required":["city","days"]}`,
			"Forecast for Rome for 3 days", `{"city":"Rome","days":3}`},
		{"query", `{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`,
			`search for "green tea"`, `{"query":"green tea"}`},
		{"optional filled when nothing is required", `{"type":"object","properties":{"a":{"type":"boolean"},"b":{"type":"null"}}}`,
			"x", `{"a":true,"b":null}`},
		{"only required when some are", `{"type":"object","properties":{"a":{"type":"boolean"},"b":{"type":"integer"}},"required":["b"]}`,
			"x", `{"b":1}`},
		{"empty", `{"type":"object"}`, "x", `{}`},
		{"nested and formats", `{"type":"object","properties":{
			"user":{"type":"object","properties":{"name":{"type":"string","minLength":3,"maxLength":5},"email":{"type":"string","format":"email"},"age":{"type":"integer","minimum":18,"maximum":30}},"required":["name","email","age"]},
			"tags":{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":3,"uniqueItems":true},
			"score":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1},
			"when":{"type":"string","format":"date-time"},"day":{"type":"string","format":"date"},
			"id":{"type":"string","format":"uuid"},"site":{"type":"string","format":"uri"},
			"note":{"type":["string","null"]},"count":{"type":"integer","multipleOf":5,"minimum":3}},
			"required":["user","tags","score","when","day","id","site","note","count"]}`, "Register Ada for the 2 workshops", ""},
		{"refs", `{"$defs":{"item":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer","minimum":1}},"required":["sku","qty"]}},
			"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/$defs/item"}}},"required":["items"]}`, "order 4 lamps", ""},
		{"allOf and anyOf", `{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},
			{"properties":{"b":{"anyOf":[{"type":"null"},{"type":"integer","minimum":7}]}},"required":["b"]}]}`, "x", ""},
		{"const and any", `{"type":"object","properties":{"kind":{"const":"fixed"},"anything":{}},"required":["kind","anything"]}`, "x", ""},
		{"prefixItems", `{"type":"object","properties":{"point":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"minItems":2}},"required":["point"]}`, "x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, err := toolArguments(json.RawMessage(tt.schema), factsOf(tt.prompt))
			if err != nil {
				t.Fatalf("toolArguments: %v", err)
			}
			if tt.want != "" && args != tt.want {
				t.Errorf("got %s; want %s", args, tt.want)
			}
			validate(t, tt.schema, args)
		})
	}
	if got, err := toolArguments(nil, factsOf("x")); err != nil || got != "{}" {
		t.Errorf("no parameters: got %q, %v; want {}", got, err)
	}
}

// weatherTools are two function tools in the OpenAI format.
func weatherTools() []any {
	return []any{
		map[string]any{"type": "function", "function": map[string]any{
			"name": "get_weather", "description": "Current weather in a city",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{
				"location": map[string]any{"type": "string"},
				"unit":     map[string]any{"type": "string", "enum": []any{"celsius", "fahrenheit"}},
			}, "required": []any{"location", "unit"}},
		}},
		map[string]any{"type": "function", "function": map[string]any{
			"name": "get_time", "parameters": map[string]any{"type": "object", "properties": map[string]any{
				"city": map[string]any{"type": "string"}}, "required": []any{"city"}},
		}},
	}
}

func TestToolChoice(t *testing.T) {
	h := New(Options{Key: testKey})
	named := map[string]any{"type": "function", "function": map[string]any{"name": "get_time"}}
	f := false
	tests := []struct {
		name   string
		prompt string
		extra  map[string]any
		calls  []string // nil: a text answer
	}{
		{"auto, not asked", "Build a counter", nil, nil},
		{"auto, named in prompt", "What's the weather in Paris? Use get_weather.", nil, []string{"get_weather"}},
		{"auto, spaced name", "get weather for Oslo please", nil, []string{"get_weather"}},
		{"auto, use a tool", "Use a tool to check Lima", nil, []string{"get_weather"}},
		{"auto, two tools", "get_weather and get_time for Tokyo", nil, []string{"get_weather", "get_time"}},
		{"no parallel calls", "get_weather and get_time for Tokyo", map[string]any{"parallel_tool_calls": f}, []string{"get_weather"}},
		{"none", "Use get_weather for Paris", map[string]any{"tool_choice": "none"}, nil},
		{"required", "Build a counter", map[string]any{"tool_choice": "required"}, []string{"get_weather"}},
		{"named", "Build a counter", map[string]any{"tool_choice": named}, []string{"get_time"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			extra := map[string]any{"tools": weatherTools()}
			for k, v := range tt.extra {
				extra[k] = v
			}
			d := complete(t, h, userBody(tt.prompt, extra))
			msg := d.Choices[0].Message
			if tt.calls == nil {
				if len(msg.ToolCalls) != 0 || d.Choices[0].FinishReason != "stop" || msg.Content == nil {
					t.Errorf("got %d tool calls, finish %q; want a text answer", len(msg.ToolCalls), d.Choices[0].FinishReason)
				}
				return
			}
			if d.Choices[0].FinishReason != "tool_calls" || msg.Content != nil {
				t.Errorf("finish_reason %q, content %v; want tool_calls and null content", d.Choices[0].FinishReason, msg.Content)
			}
			if len(msg.ToolCalls) != len(tt.calls) {
				t.Fatalf("got %d tool calls; want %v", len(msg.ToolCalls), tt.calls)
			}
			for i, c := range msg.ToolCalls {
				if c.Function.Name != tt.calls[i] || c.Type != "function" || !strings.HasPrefix(c.ID, "call_") {
					t.Errorf("call %d: got %s %q %q; want function %q with a call_ id", i, c.Type, c.Function.Name, c.ID, tt.calls[i])
				}
				if !json.Valid([]byte(c.Function.Arguments)) {
					t.Errorf("call %d: arguments %q are not JSON", i, c.Function.Arguments)
				}
			}
			if tt.calls[0] == "get_weather" && strings.Contains(tt.prompt, "Paris") && msg.ToolCalls[0].Function.Arguments != `{"location":"Paris","unit":"celsius"}` {
				t.Errorf("arguments = %s; want Paris in celsius", msg.ToolCalls[0].Function.Arguments)
			}
		})
	}
}

func TestToolErrors(t *testing.T) {
	h := New(Options{Key: testKey})
	tests := []struct {
		name  string
		extra map[string]any
		param string
	}{
		{"unknown named tool", map[string]any{"tools": weatherTools(), "tool_choice": map[string]any{"type": "function", "function": map[string]any{"name": "nope"}}}, "tool_choice"},
		{"bad tool_choice", map[string]any{"tools": weatherTools(), "tool_choice": "always"}, "tool_choice"},
		{"bad tool type", map[string]any{"tools": []any{map[string]any{"type": "retrieval"}}}, "tools[0].type"},
		{"bad tool name", map[string]any{"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "has space"}}}}, "tools[0].function.name"},
		{"parameters not an object", map[string]any{"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "f", "parameters": []any{}}}}}, "tools[0].function.parameters"},
	}
	for _, tt := range tests {
		rec := post(t, h, testKey, userBody("hi", tt.extra))
		if rec.Code != 400 {
			t.Errorf("%s: status %d; want 400", tt.name, rec.Code)
			continue
		}
		if got := deref(errorOf(t, rec).Param); got != tt.param {
			t.Errorf("%s: param %q; want %q", tt.name, got, tt.param)
		}
	}
}

func TestToolCallStream(t *testing.T) {
	h := New(Options{Key: testKey})
	want := complete(t, h, userBody("get_weather and get_time for Tokyo", map[string]any{"tools": weatherTools()}))
	rec := post(t, h, testKey, userBody("get_weather and get_time for Tokyo", map[string]any{"tools": weatherTools(), "stream": true}))
	chunks := chunksOf(t, rec.Body.String())
	if chunks[0].Choices[0].Delta.Role != "assistant" {
		t.Errorf("first delta role = %q; want assistant", chunks[0].Choices[0].Delta.Role)
	}
	args := map[int]string{}
	heads := 0
	for i, c := range chunks[:len(chunks)-1] {
		d := c.Choices[0].Delta
		if c.Choices[0].FinishReason != nil || d.Content != nil || len(d.ToolCalls) != 1 {
			t.Fatalf("chunk %d: want exactly one tool call fragment and no content or finish", i)
		}
		tc := d.ToolCalls[0]
		if tc.ID != nil { // a head: id, type, name, empty arguments
			heads++
			if tc.Type == nil || *tc.Type != "function" || tc.Function.Name == nil || tc.Function.Arguments == nil || *tc.Function.Arguments != "" {
				t.Errorf("chunk %d: head fragment %+v; want type function, a name and arguments \"\"", i, tc)
			}
			if *tc.ID != want.Choices[0].Message.ToolCalls[tc.Index].ID || *tc.Function.Name != want.Choices[0].Message.ToolCalls[tc.Index].Function.Name {
				t.Errorf("chunk %d: head id/name differ from the non-streamed call", i)
			}
			continue
		}
		if tc.Type != nil || tc.Function.Name != nil || tc.Function.Arguments == nil {
			t.Errorf("chunk %d: argument fragment %+v; want only index and arguments", i, tc)
		}
		args[tc.Index] += *tc.Function.Arguments
	}
	if heads != 2 {
		t.Errorf("got %d head fragments; want 2", heads)
	}
	for i, c := range want.Choices[0].Message.ToolCalls {
		if args[i] != c.Function.Arguments {
			t.Errorf("call %d: streamed arguments %q; want %q", i, args[i], c.Function.Arguments)
		}
	}
	if got := chunks[len(chunks)-1].Choices[0].FinishReason; got == nil || *got != "tool_calls" {
		t.Errorf("last finish_reason = %v; want tool_calls", got)
	}
}

func TestToolResultUsed(t *testing.T) {
	h := New(Options{Key: testKey})
	call := complete(t, h, userBody("Use get_weather for Paris and build a dashboard", map[string]any{"tools": weatherTools()}))
	tc := call.Choices[0].Message.ToolCalls[0]
	body := map[string]any{"model": ModelID, "tools": weatherTools(), "messages": []any{
		map[string]any{"role": "user", "content": "Use get_weather for Paris and build a dashboard"},
		map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"id": tc.ID, "type": "function", "function": map[string]any{"name": tc.Function.Name, "arguments": tc.Function.Arguments}}}},
		map[string]any{"role": "tool", "tool_call_id": tc.ID, "content": `{"temperature": 21, "sky": "clear <b>"}`},
	}}
	d := complete(t, h, body)
	if d.Choices[0].FinishReason != "stop" || len(d.Choices[0].Message.ToolCalls) != 0 {
		t.Fatalf("after a tool result: finish %q, %d calls; want a text answer", d.Choices[0].FinishReason, len(d.Choices[0].Message.ToolCalls))
	}
	answer := d.content()
	if want := "The `get_weather` tool returned: {\"temperature\": 21, \"sky\": \"clear <b>\"}"; !strings.HasPrefix(answer, want) {
		t.Errorf("answer starts %q; want %q", answer[:min(80, len(answer))], want)
	}
	page := htmlBlock(t, answer)
	if !strings.Contains(page, `From get_weather: {&#34;temperature&#34;: 21, &#34;sky&#34;: &#34;clear &lt;b&gt;&#34;}`) {
		t.Error("the app does not show the escaped tool result")
	}
	if p := parseApp(t, page); !p.kinds["cards"] {
		t.Errorf("got sections %v; want the dashboard asked for", p.kinds)
	}
}

func TestHostileSchemasAreBounded(t *testing.T) {
	schemas := []string{
		`{"type":"object","properties":{"a":{"type":"array","minItems":1000000000,"items":{"type":"array","minItems":1000000000,"items":{"type":"array","minItems":1000000000}}}},"required":["a"]}`,
		`{"type":"object","properties":{"s":{"type":"string","minLength":1000000000}},"required":["s"]}`,
		`{"$ref":"#/$defs/n","$defs":{"n":{"type":"object","properties":{"a":{"$ref":"#/$defs/n"},"b":{"$ref":"#/$defs/n"},"c":{"$ref":"#/$defs/n"}},"required":["a","b","c"]}}}`,
		`{"type":"object","properties":{"x":{"type":"integer","minimum":1e300},"y":{"type":"number","maximum":-1e308,"minimum":1e308}},"required":["x","y"]}`,
		`{"$ref":"#"}`,
		`{"type":"object","properties":{"z":{"$ref":"#/nowhere/x"},"w":{"items":false},"v":{"anyOf":[{"type":"null"}]}},"required":["z","w","v"]}`,
	}
	for _, schema := range schemas {
		start := time.Now()
		args, err := toolArguments(json.RawMessage(schema), factsOf("x"))
		if err != nil {
			t.Errorf("%s: %v", schema, err)
			continue
		}
		if !json.Valid([]byte(args)) || len(args) > 1<<20 {
			t.Errorf("%s: got %d bytes of arguments, valid JSON %v; want a small valid JSON text", schema, len(args), json.Valid([]byte(args)))
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v", schema, d)
		}
	}
}

func FuzzHandler(f *testing.F) {
	f.Add(`{"model":"v0-1.0-md","messages":[{"role":"user","content":"a chart"}]}`)
	f.Add(`{"model":"v0-1.0-md","stream":true,"max_tokens":5,"messages":[{"role":"user","content":[{"type":"text","text":"x"}]}]}`)
	f.Add(`{"model":"v0-1.0-md","tool_choice":"required","tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"array","items":{"$ref":"#"}}},"required":["a"]}}}],"messages":[{"role":"user","content":"f"}]}`)
	h := New(Options{Key: testKey, MaxOutputTokens: 2000})
	f.Fuzz(func(t *testing.T, body string) {
		rec := post(t, h, testKey, body)
		switch rec.Code {
		case 200:
		case 400, 404, 413:
			_ = errorOf(t, rec)
		default:
			t.Fatalf("status %d for %q", rec.Code, body)
		}
	})
}
