package chat

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"
)

// TestOpenAIClient drives the sandbox with the official Go client, mounted
// the way the server mounts it. Add a row for another path to the same
// handler (the proxy, say) to run the same checks through it.
func TestOpenAIClient(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/sandbox/chat/", http.StripPrefix("/sandbox/chat", New(Options{Key: testKey})))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	tests := []struct {
		name string
		base string // base URL path, as a client would be configured
	}{
		{"sandbox", "/sandbox/chat/v1/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := openai.NewClient(
				option.WithBaseURL(srv.URL+tt.base),
				option.WithAPIKey(testKey),
				option.WithMaxRetries(0),
			)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			t.Run("complete", func(t *testing.T) { clientComplete(ctx, t, client) })
			t.Run("stream", func(t *testing.T) { clientStream(ctx, t, client) })
			t.Run("tools", func(t *testing.T) { clientTools(ctx, t, client) })
			t.Run("image", func(t *testing.T) { clientImage(ctx, t, client) })
			t.Run("structured", func(t *testing.T) { clientStructured(ctx, t, client) })
			t.Run("errors", func(t *testing.T) { clientErrors(ctx, t, srv.URL+tt.base) })
		})
	}
}

// counterParams asks for a counter app.
func counterParams() openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model: ModelID,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("You write single-file web apps."),
			openai.UserMessage("Build a counter for coffee cups"),
		},
	}
}

func clientComplete(ctx context.Context, t *testing.T, client openai.Client) {
	c, err := client.Chat.Completions.New(ctx, counterParams())
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if c.Model != ModelID || len(c.Choices) != 1 || c.Choices[0].FinishReason != "stop" {
		t.Fatalf("got model %q, %d choices; want %s, one choice with finish_reason stop", c.Model, len(c.Choices), ModelID)
	}
	if !strings.Contains(c.Choices[0].Message.Content, "Coffee Cups Counter") {
		t.Errorf("content lacks the app title")
	}
	if c.Usage.CompletionTokens == 0 || c.Usage.TotalTokens != c.Usage.PromptTokens+c.Usage.CompletionTokens {
		t.Errorf("usage = %+v; want completion tokens and a consistent total", c.Usage)
	}
}

func clientStream(ctx context.Context, t *testing.T, client openai.Client) {
	want, err := client.Chat.Completions.New(ctx, counterParams())
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	params := counterParams()
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	stream := client.Chat.Completions.NewStreaming(ctx, params)
	acc := openai.ChatCompletionAccumulator{}
	finished := false
	chunks := 0
	for stream.Next() {
		chunks++
		if !acc.AddChunk(stream.Current()) {
			t.Fatalf("the accumulator refused chunk %d", chunks)
		}
		if _, ok := acc.JustFinishedContent(); ok {
			finished = true
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("stream: %v", err)
	}
	if !finished || chunks < 10 {
		t.Errorf("got %d chunks, content finished %v; want many chunks and a finished content", chunks, finished)
	}
	if got := acc.Choices[0].Message.Content; got != want.Choices[0].Message.Content {
		t.Error("the accumulated stream differs from the completion")
	}
	if acc.Choices[0].FinishReason != "stop" {
		t.Errorf("finish_reason = %q; want stop", acc.Choices[0].FinishReason)
	}
	if acc.Usage.CompletionTokens != want.Usage.CompletionTokens {
		t.Errorf("streamed usage %+v; want %+v", acc.Usage, want.Usage)
	}
}

// weatherParams offers a get_weather tool.
func weatherParams(prompt string) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:    ModelID,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)},
		Tools: []openai.ChatCompletionToolParam{{
			Function: openai.FunctionDefinitionParam{
				Name:        "get_weather",
				Description: openai.String("Current weather in a city"),
				Parameters: openai.FunctionParameters{
					"type": "object",
					"properties": map[string]any{
						"location": map[string]any{"type": "string"},
						"unit":     map[string]any{"type": "string", "enum": []string{"celsius", "fahrenheit"}},
					},
					"required": []string{"location", "unit"},
				},
			},
		}},
	}
}

func clientTools(ctx context.Context, t *testing.T, client openai.Client) {
	params := weatherParams("What's the weather in Paris? Then build a dashboard.")
	params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("required")}
	c, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	calls := c.Choices[0].Message.ToolCalls
	if c.Choices[0].FinishReason != "tool_calls" || len(calls) != 1 || calls[0].Function.Name != "get_weather" {
		t.Fatalf("got finish %q and %d calls; want one get_weather call", c.Choices[0].FinishReason, len(calls))
	}
	var args struct{ Location, Unit string }
	if err := json.Unmarshal([]byte(calls[0].Function.Arguments), &args); err != nil || args.Location != "Paris" || args.Unit != "celsius" {
		t.Errorf("arguments %q (%v); want Paris in celsius", calls[0].Function.Arguments, err)
	}

	stream := client.Chat.Completions.NewStreaming(ctx, params)
	acc := openai.ChatCompletionAccumulator{}
	var finished []openai.FinishedChatCompletionToolCall
	for stream.Next() {
		acc.AddChunk(stream.Current())
		if tc, ok := acc.JustFinishedToolCall(); ok {
			finished = append(finished, tc)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("stream: %v", err)
	}
	if len(finished) != 1 || finished[0].Name != "get_weather" || finished[0].Arguments != calls[0].Function.Arguments || finished[0].ID != calls[0].ID {
		t.Errorf("streamed tool calls %+v; want the completion's call %+v", finished, calls[0])
	}
	if acc.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("streamed finish_reason = %q; want tool_calls", acc.Choices[0].FinishReason)
	}

	// The client runs the tool and sends the result back.
	params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")}
	params.Messages = append(params.Messages, c.Choices[0].Message.ToParam(),
		openai.ToolMessage(`{"temperature":21,"sky":"clear"}`, calls[0].ID))
	next, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatalf("New with the tool result: %v", err)
	}
	if got := next.Choices[0].Message.Content; !strings.HasPrefix(got, "The `get_weather` tool returned: {\"temperature\":21") {
		t.Errorf("answer after the tool result starts %q; want it to quote the result", got[:min(len(got), 80)])
	}
}

func clientImage(ctx context.Context, t *testing.T, client openai.Client) {
	url := dataURL("image/png", encoded(t, "png", 64, 48))
	c, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model: ModelID,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
			openai.TextContentPart("A gallery around this picture"),
			openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: url}),
		})},
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if got := c.Choices[0].Message.Content; !strings.HasPrefix(got, "I see a PNG image, 64×48 pixels.") {
		t.Errorf("answer starts %q; want the image acknowledged", got[:min(len(got), 60)])
	}
}

func clientErrors(ctx context.Context, t *testing.T, base string) {
	tests := []struct {
		name   string
		key    string
		model  string
		status int
		code   string
	}{
		{"wrong key", "sk-wrong", ModelID, 401, "invalid_api_key"},
		{"wrong model", testKey, "gpt-4o", 404, "model_not_found"},
	}
	for _, tt := range tests {
		client := openai.NewClient(option.WithBaseURL(base), option.WithAPIKey(tt.key), option.WithMaxRetries(0))
		params := counterParams()
		params.Model = tt.model
		_, err := client.Chat.Completions.New(ctx, params)
		var apiErr *openai.Error
		if !errors.As(err, &apiErr) {
			t.Fatalf("%s: got error %v; want *openai.Error", tt.name, err)
		}
		if apiErr.StatusCode != tt.status || apiErr.Code != tt.code || apiErr.Message == "" {
			t.Errorf("%s: got status %d, code %q, message %q; want %d, %q and a message", tt.name, apiErr.StatusCode, apiErr.Code, apiErr.Message, tt.status, tt.code)
		}
		// Streaming requests fail the same way.
		stream := client.Chat.Completions.NewStreaming(ctx, params)
		for stream.Next() {
		}
		if !errors.As(stream.Err(), &apiErr) || apiErr.StatusCode != tt.status {
			t.Errorf("%s: streaming error %v; want *openai.Error with status %d", tt.name, stream.Err(), tt.status)
		}
	}
}
