package chat

import (
	"encoding/json"
	"net/http"
	"strings"
)

// output is the answer after the budget: what is actually sent.
// The answer is kept as text and split into tokens as it streams (eachToken): a stream holds its
// text, not a slice of its tokens, which cost 16 bytes a token (2,000 streams of a 1,000-token
// answer held 67 MB of token slices).
type output struct {
	content string    // the answer's text, when the answer is text
	calls   []callOut // tool calls, when the answer calls tools
	finish  string    // stop, length or tool_calls
	tokens  int       // completion tokens
}

// callOut is a tool call and its arguments' text, sent token by token.
type callOut struct {
	id, name string
	args     string
}

// cut applies the budget to the reply: the answer stops after budget tokens
// with finish_reason "length". A tool call costs its name's tokens plus its
// arguments' tokens.
func cut(r reply, budget int) output {
	if len(r.calls) == 0 {
		text, n := firstTokens(r.content, budget)
		out := output{content: text, finish: "stop", tokens: n}
		if len(text) < len(r.content) {
			// A copy, so that a stream cut short does not hold the whole answer.
			out.content, out.finish = strings.Clone(text), "length"
		}
		return out
	}
	out := output{finish: "tool_calls"}
	left := budget
	for _, c := range r.calls {
		cost := countTokens(c.name)
		if cost >= left {
			out.finish = "length"
			break
		}
		left -= cost
		args, n := firstTokens(c.arguments, left)
		out.calls = append(out.calls, callOut{id: c.id, name: c.name, args: args})
		left -= n
		if len(args) < len(c.arguments) {
			out.finish = "length"
			break
		}
	}
	out.tokens = budget - left
	return out
}

// responseMeta is what every response and chunk of one answer shares.
type responseMeta struct {
	id      string
	created int64
	prompt  int // prompt tokens
}

// usage is the token count of an answer.
type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// usageOf returns the usage of out.
func usageOf(meta responseMeta, out output) usage {
	return usage{PromptTokens: meta.prompt, CompletionTokens: out.tokens, TotalTokens: meta.prompt + out.tokens}
}

// completionJSON is a chat.completion object.
type completionJSON struct {
	ID                string       `json:"id"`
	Object            string       `json:"object"`
	Created           int64        `json:"created"`
	Model             string       `json:"model"`
	SystemFingerprint string       `json:"system_fingerprint"`
	Choices           []choiceJSON `json:"choices"`
	Usage             usage        `json:"usage"`
}

// choiceJSON is one choice of a chat.completion.
type choiceJSON struct {
	Index        int         `json:"index"`
	Message      messageJSON `json:"message"`
	Logprobs     *struct{}   `json:"logprobs"`
	FinishReason string      `json:"finish_reason"`
}

// messageJSON is the assistant message of a choice.
type messageJSON struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []toolCallJSON `json:"tool_calls,omitempty"`
}

// toolCallJSON is a complete tool call.
type toolCallJSON struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function functionJSON `json:"function"`
}

// functionJSON names the function and its JSON arguments.
type functionJSON struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// writeCompletion answers a non-streaming request.
func writeCompletion(w http.ResponseWriter, meta responseMeta, out output) {
	msg := messageJSON{Role: "assistant"}
	if len(out.calls) == 0 {
		content := out.content
		msg.Content = &content
	}
	for _, c := range out.calls {
		msg.ToolCalls = append(msg.ToolCalls, toolCallJSON{ID: c.id, Type: "function",
			Function: functionJSON{Name: c.name, Arguments: c.args}})
	}
	body, err := json.Marshal(completionJSON{
		ID:                meta.id,
		Object:            "chat.completion",
		Created:           meta.created,
		Model:             ModelID,
		SystemFingerprint: systemFingerprint,
		Choices:           []choiceJSON{{Message: msg, FinishReason: out.finish}},
		Usage:             usageOf(meta, out),
	})
	if err != nil { // cannot happen: only strings and ints
		writeError(w, &apiError{status: http.StatusInternalServerError, typ: "server_error", message: "Could not encode the completion."})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(append(body, '\n'))
}
