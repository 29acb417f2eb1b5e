package chat

import (
	"encoding/json"
	"strings"
	"testing"
)

// weatherSchema is a strict structured-output schema, as openai-node's zodResponseFormat writes one.
const weatherSchema = `{"type":"object","properties":{
	"city":{"type":"string"},
	"unit":{"type":"string","enum":["celsius","fahrenheit"]},
	"temperature":{"type":"number","minimum":-90,"maximum":60},
	"days":{"type":"array","items":{"type":"object","properties":{"date":{"type":"string","format":"date"},"rain":{"type":"boolean"}},"required":["date","rain"],"additionalProperties":false},"minItems":2},
	"contact":{"type":["string","null"],"format":"email"},
	"kind":{"const":"forecast"}},
	"required":["city","unit","temperature","days","contact","kind"],"additionalProperties":false}`

// TestResponseFormat: json_schema answers a value that validates against the schema, the same
// for the same request and never taken from the prompt (Paris is not made the city); json_object
// answers the app as a JSON object; text (or none) the Markdown answer; streamed the same.
func TestResponseFormat(t *testing.T) {
	h := New(Options{Key: testKey})
	schemaFormat := map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "weather", "strict": true, "schema": json.RawMessage(weatherSchema)}}
	prompt := "What is the weather in Paris for 3 days? Answer in JSON."
	t.Run("json_schema", func(t *testing.T) {
		body := userBody(prompt, map[string]any{"response_format": schemaFormat})
		got := complete(t, h, body).content()
		validate(t, weatherSchema, got)
		if again := complete(t, h, body).content(); again != got {
			t.Errorf("the same request answered %s, then %s; want the same", got, again)
		}
		if strings.Contains(got, "Paris") {
			t.Errorf("answer %s takes a value from the prompt; want the schema's placeholders", got)
		}
		want := `{"city":"example","unit":"celsius","temperature":1,"days":[{"date":"2026-01-15","rain":true},{"date":"2026-01-15","rain":true}],"contact":"user@example.com","kind":"forecast"}`
		if got != want {
			t.Errorf("got %s; want %s", got, want)
		}
	})
	t.Run("json_schema without a schema is an object", func(t *testing.T) {
		got := complete(t, h, userBody(prompt, map[string]any{"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "any"}}})).content()
		if got != "{}" {
			t.Errorf("got %s; want {}", got)
		}
	})
	t.Run("json_object", func(t *testing.T) {
		got := complete(t, h, userBody("Build a counter for coffee cups, as JSON", map[string]any{"response_format": map[string]any{"type": "json_object"}})).content()
		var app struct {
			Title string   `json:"title"`
			Plan  []string `json:"plan"`
			HTML  string   `json:"html"`
		}
		if err := json.Unmarshal([]byte(got), &app); err != nil {
			t.Fatalf("content is not a JSON object: %v\n%s", err, got)
		}
		if app.Title != "Coffee Cups Counter" || len(app.Plan) == 0 || !strings.HasPrefix(app.HTML, "<!doctype html>") {
			t.Errorf("got title %q, %d plan lines, html %.40q; want the counter app", app.Title, len(app.Plan), app.HTML)
		}
	})
	t.Run("text is the Markdown answer", func(t *testing.T) {
		plain := complete(t, h, userBody("Build a counter", nil)).content()
		text := complete(t, h, userBody("Build a counter", map[string]any{"response_format": map[string]any{"type": "text"}})).content()
		if !strings.Contains(text, "```html") || !strings.Contains(plain, "```html") {
			t.Errorf("text format: got %.60q; want the Markdown answer", text)
		}
	})
	t.Run("streamed", func(t *testing.T) {
		rec := post(t, h, testKey, userBody(prompt, map[string]any{"response_format": schemaFormat, "stream": true}))
		var b strings.Builder
		for _, data := range sseData(t, rec.Body.String()) {
			if data == "[DONE]" {
				continue
			}
			var chunk struct {
				Choices []struct {
					Delta struct {
						Content string `json:"content"`
					} `json:"delta"`
				} `json:"choices"`
			}
			if err := json.Unmarshal([]byte(data), &chunk); err != nil {
				t.Fatal(err)
			}
			for _, c := range chunk.Choices {
				b.WriteString(c.Delta.Content)
			}
		}
		validate(t, weatherSchema, b.String())
	})
}

// TestResponseFormatErrors: a bad response_format is refused as OpenAI refuses it.
func TestResponseFormatErrors(t *testing.T) {
	h := New(Options{Key: testKey})
	for _, tc := range []struct {
		name    string
		prompt  string
		format  any
		param   string
		code    string
		message string
	}{
		{"a string", "json", "json", "response_format", "invalid_type", "Invalid type for 'response_format': expected an object, but got a string instead."},
		{"no type", "json", map[string]any{}, "response_format.type", "missing_required_parameter", "Missing required parameter: 'response_format.type'."},
		{"an unknown type", "json", map[string]any{"type": "yaml"}, "response_format.type", "invalid_value", "Invalid value: 'yaml'. Supported values are: 'json_object', 'json_schema', and 'text'."},
		{"a type that is a number", "json", map[string]any{"type": 5}, "response_format.type", "invalid_type", "Invalid type for 'response_format.type': expected a string, but got an integer instead."},
		{"json_object without the word json", "Build a counter", map[string]any{"type": "json_object"}, "messages", "", "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'."},
		{"json_schema without json_schema", "x", map[string]any{"type": "json_schema"}, "response_format.json_schema", "missing_required_parameter", "Missing required parameter: 'response_format.json_schema'."},
		{"json_schema without a name", "x", map[string]any{"type": "json_schema", "json_schema": map[string]any{"schema": map[string]any{"type": "object"}}}, "response_format.json_schema.name", "missing_required_parameter", "Missing required parameter: 'response_format.json_schema.name'."},
		{"a name with a space", "x", map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "my schema"}}, "response_format.json_schema.name", "invalid_value", "string does not match pattern"},
		{"a schema that is a list", "x", map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "s", "schema": []any{1}}}, "response_format.json_schema.schema", "invalid_type", "expected an object, but got an array instead."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := post(t, h, testKey, userBody(tc.prompt, map[string]any{"response_format": tc.format}))
			if rec.Code != 400 {
				t.Fatalf("status %d (%s); want 400", rec.Code, rec.Body)
			}
			e := errorOf(t, rec)
			if deref(e.Param) != tc.param || deref(e.Code) != tc.code || !strings.Contains(e.Message, tc.message) {
				t.Errorf("got param %q code %q message %q; want %q %q %q", deref(e.Param), deref(e.Code), e.Message, tc.param, tc.code, tc.message)
			}
		})
	}
}
