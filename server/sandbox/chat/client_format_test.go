package chat

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/shared"
)

// clientStructured asks for structured outputs with the official Go client: a json_schema
// answer decodes into the schema's Go type and validates; json_object decodes as an object.
func clientStructured(ctx context.Context, t *testing.T, client openai.Client) {
	var schema map[string]any
	if err := json.Unmarshal([]byte(weatherSchema), &schema); err != nil {
		t.Fatal(err)
	}
	params := openai.ChatCompletionNewParams{
		Model:    ModelID,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("The weather in Oslo, please.")},
		ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: "weather", Strict: openai.Bool(true), Schema: schema},
		}},
	}
	c, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatalf("json_schema: %v", err)
	}
	content := c.Choices[0].Message.Content
	validate(t, weatherSchema, content)
	var w struct {
		City string `json:"city"`
		Unit string `json:"unit"`
		Days []struct {
			Date string `json:"date"`
		} `json:"days"`
	}
	if err := json.Unmarshal([]byte(content), &w); err != nil || w.Unit != "celsius" || len(w.Days) < 2 {
		t.Errorf("json_schema: decoded %+v (%v) from %s; want the schema's shape", w, err, content)
	}

	params.Messages = []openai.ChatCompletionMessageParamUnion{openai.UserMessage("A todo list, as JSON")}
	params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}}
	c, err = client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatalf("json_object: %v", err)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(c.Choices[0].Message.Content), &obj); err != nil || obj["html"] == nil {
		t.Errorf("json_object: content is not the app as a JSON object (%v): %.200s", err, c.Choices[0].Message.Content)
	}
}
