package server

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/openai/openai-go"
	oaioption "github.com/openai/openai-go/option"
	kgsearch "google.golang.org/api/kgsearch/v1"
	"google.golang.org/api/option"

	"loupe/server/sandbox"
)

// startTestServer serves a default Server (every API on its sandbox, no pacing) on loopback.
func startTestServer(t *testing.T) string {
	t.Helper()
	srv, err := New(Config{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	return ts.URL
}

// TestKGSearchClientThroughProxy points the official Knowledge Graph client at the sandbox and
// at the proxy and expects the same answers. Through the proxy the client's own key is
// replaced by the one the server holds, so any key works there.
func TestKGSearchClientThroughProxy(t *testing.T) {
	base := startTestServer(t)
	ctx := context.Background()
	search := func(endpoint, key string) func(func(*kgsearch.EntitiesService) *kgsearch.EntitiesSearchCall) string {
		svc, err := kgsearch.NewService(ctx, option.WithEndpoint(base+endpoint), option.WithAPIKey(key))
		if err != nil {
			t.Fatalf("NewService(%s): %v", endpoint, err)
		}
		return func(call func(*kgsearch.EntitiesService) *kgsearch.EntitiesSearchCall) string {
			resp, err := call(svc.Entities).Context(ctx).Do()
			if err != nil {
				t.Fatalf("%s: %v", endpoint, err)
			}
			out, _ := json.Marshal(resp.ItemListElement)
			return string(out)
		}
	}
	direct := search("/sandbox/entities/", sandbox.DefaultKey)
	proxied := search("/proxy/entities/", "a-key-the-proxy-drops")
	calls := map[string]func(*kgsearch.EntitiesService) *kgsearch.EntitiesSearchCall{
		"query": func(s *kgsearch.EntitiesService) *kgsearch.EntitiesSearchCall {
			return s.Search().Query("paris").Limit(5)
		},
		"ids": func(s *kgsearch.EntitiesService) *kgsearch.EntitiesSearchCall { return s.Search().Ids("/m/0dl567") },
		"types": func(s *kgsearch.EntitiesService) *kgsearch.EntitiesSearchCall {
			return s.Search().Query("city").Types("City", "Country")
		},
		"prefix": func(s *kgsearch.EntitiesService) *kgsearch.EntitiesSearchCall {
			return s.Search().Query("ber").Prefix(true).Languages("de")
		},
	}
	for name, call := range calls {
		got, want := proxied(call), direct(call)
		if got != want {
			t.Errorf("%s: through the proxy got %.200s; want %.200s", name, got, want)
		}
		if got == "null" || got == "[]" {
			t.Errorf("%s: no results", name)
		}
	}
}

// TestOpenAIClientThroughProxy completes and streams with the official OpenAI client against
// /sandbox/chat/v1 and /proxy/chat/v1, tools included, and expects the same answers.
func TestOpenAIClientThroughProxy(t *testing.T) {
	base := startTestServer(t)
	ctx := context.Background()
	type answer struct {
		Content, Finish, Tool, Args string
	}
	run := func(path, key string, tools bool, stream bool) answer {
		client := openai.NewClient(oaioption.WithBaseURL(base+path), oaioption.WithAPIKey(key), oaioption.WithMaxRetries(0))
		params := openai.ChatCompletionNewParams{
			Model:    "v0-1.0-md",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Build a counter app and look up the weather in Paris")},
		}
		if tools {
			params.Tools = []openai.ChatCompletionToolParam{{Function: openai.FunctionDefinitionParam{
				Name:       "get_weather",
				Parameters: openai.FunctionParameters{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []string{"city"}},
			}}}
			params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("required")}
		}
		var c openai.ChatCompletion
		if stream {
			s := client.Chat.Completions.NewStreaming(ctx, params)
			acc := openai.ChatCompletionAccumulator{}
			for s.Next() {
				acc.AddChunk(s.Current())
			}
			if err := s.Err(); err != nil {
				t.Fatalf("%s stream: %v", path, err)
			}
			c = acc.ChatCompletion
		} else {
			got, err := client.Chat.Completions.New(ctx, params)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			c = *got
		}
		if len(c.Choices) == 0 {
			t.Fatalf("%s: no choices", path)
		}
		a := answer{Content: c.Choices[0].Message.Content, Finish: c.Choices[0].FinishReason}
		if tc := c.Choices[0].Message.ToolCalls; len(tc) > 0 {
			a.Tool, a.Args = tc[0].Function.Name, tc[0].Function.Arguments
		}
		return a
	}
	for _, tc := range []struct {
		name          string
		tools, stream bool
	}{{"complete", false, false}, {"stream", false, true}, {"tool call", true, false}, {"streamed tool call", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			want := run("/sandbox/chat/v1/", sandbox.DefaultKey, tc.tools, tc.stream)
			got := run("/proxy/chat/v1/", "sk-dropped-by-the-proxy", tc.tools, tc.stream)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("through the proxy got %+v; want %+v", got, want)
			}
			if tc.tools && got.Tool != "get_weather" {
				t.Errorf("tool: got %q; want get_weather", got.Tool)
			}
			if !tc.tools && got.Content == "" {
				t.Error("empty answer")
			}
		})
	}
}
