package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// toolDef is an OpenAI function tool: {"type":"function","function":{…}}.
type toolDef struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// toolCall is a call the sandbox model makes.
type toolCall struct {
	id        string
	name      string
	arguments string // JSON text valid for the tool's parameter schema
}

// toolChoice is the decoded tool_choice.
type toolChoice struct {
	mode string // "auto", "none", "required" or "named"
	name string // the tool, when mode is "named"
}

// validToolName follows OpenAI's rule for function names.
var validToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// checkTools validates the tools and tool_choice of req.
func checkTools(req *chatRequest) (toolChoice, *apiError) {
	for i, t := range req.Tools {
		if t.Type != "function" {
			return toolChoice{}, invalidRequest(fmt.Sprintf("tools[%d].type", i), "invalid_value",
				"Invalid value: '%s'. Supported values are: 'function'.", t.Type)
		}
		if !validToolName.MatchString(t.Function.Name) {
			return toolChoice{}, invalidRequest(fmt.Sprintf("tools[%d].function.name", i), "invalid_value",
				"Invalid 'tools[%d].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$' with at most 64 characters.", i)
		}
		if p := bytes.TrimSpace(t.Function.Parameters); len(p) > 0 && p[0] != '{' && !bytes.Equal(p, []byte("null")) {
			return toolChoice{}, invalidRequest(fmt.Sprintf("tools[%d].function.parameters", i), "invalid_type",
				"Invalid type for 'tools[%d].function.parameters': expected an object (a JSON Schema).", i)
		}
	}
	choice := toolChoice{mode: "auto"}
	raw := bytes.TrimSpace(req.ToolChoice)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
	case raw[0] == '"':
		if err := json.Unmarshal(raw, &choice.mode); err != nil {
			return choice, invalidRequest("tool_choice", "", "Invalid 'tool_choice': %v.", err)
		}
		if choice.mode != "auto" && choice.mode != "none" && choice.mode != "required" {
			return choice, invalidRequest("tool_choice", "invalid_value",
				"Invalid value: '%s'. Supported values are: 'none', 'auto' and 'required'.", choice.mode)
		}
	case raw[0] == '{':
		var named struct {
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		if err := json.Unmarshal(raw, &named); err != nil {
			return choice, fieldTypeError("tool_choice", raw, err)
		}
		if named.Function.Name == "" {
			return choice, invalidRequest("tool_choice.function.name", "", "Missing required parameter: 'tool_choice.function.name'.")
		}
		choice = toolChoice{mode: "named", name: named.Function.Name}
	default:
		return choice, invalidRequest("tool_choice", "invalid_type",
			"Invalid type for 'tool_choice': expected one of a string or an object, but got %s instead.", jsonKind(raw))
	}
	if choice.mode != "auto" && choice.mode != "none" && len(req.Tools) == 0 {
		return choice, invalidRequest("tool_choice", "",
			"Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.")
	}
	if choice.mode == "named" && findTool(req.Tools, choice.name) < 0 {
		return choice, invalidRequest("tool_choice", "invalid_value",
			"Invalid 'tool_choice': no function named '%s' was specified in the 'tools' parameter.", choice.name)
	}
	return choice, nil
}

// findTool returns the index of the tool called name, or -1.
func findTool(tools []toolDef, name string) int {
	for i, t := range tools {
		if t.Function.Name == name {
			return i
		}
	}
	return -1
}

// genericToolAsk matches prompts that ask for "a tool" without naming it.
var genericToolAsk = regexp.MustCompile(`(?i)\b(use|call|invoke|run)\s+(the|a|an|your|my)?\s*(tool|tools|function)\b`)

// pickTools decides which tools the answer calls, if any:
//
//   - tool_choice "none", or no tools: none;
//   - a named tool_choice: that tool;
//   - "required": the tools the last user message mentions, or else the
//     first tool;
//   - "auto" (the default): only when the conversation ends with a user
//     message, the tools it mentions by name ("get_weather" or
//     "get weather"), or the first tool when it asks to "use a tool".
//
// A conversation that ends with tool results is answered in text under
// "auto", which is what ends a client's tool loop. With parallel_tool_calls
// false at most one tool is called.
func pickTools(req *chatRequest, choice toolChoice, msgs []message) []int {
	if len(req.Tools) == 0 || choice.mode == "none" {
		return nil
	}
	if choice.mode == "named" {
		return []int{findTool(req.Tools, choice.name)}
	}
	last := msgs[len(msgs)-1]
	var picked []int
	if last.role == "user" || choice.mode == "required" {
		prompt := strings.ToLower(lastUserText(msgs))
		for i, t := range req.Tools {
			name := strings.ToLower(t.Function.Name)
			spaced := strings.NewReplacer("_", " ", "-", " ").Replace(name)
			if strings.Contains(prompt, name) || strings.Contains(prompt, spaced) {
				picked = append(picked, i)
			}
		}
		if len(picked) == 0 && (choice.mode == "required" || (last.role == "user" && genericToolAsk.MatchString(prompt))) {
			picked = []int{0}
		}
	}
	if len(picked) > 1 && req.ParallelToolCalls != nil && !*req.ParallelToolCalls {
		picked = picked[:1]
	}
	return picked
}

// lastUserText returns the text of the last user message.
func lastUserText(msgs []message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].role == "user" {
			return msgs[i].text
		}
	}
	return ""
}

// toolResult is a tool message that answers an earlier tool call.
type toolResult struct {
	name    string // the function's name, when the call is found
	content string
}

// recentToolResults returns the tool messages at the end of the conversation.
func recentToolResults(msgs []message) []toolResult {
	start := len(msgs)
	for start > 0 && msgs[start-1].role == "tool" {
		start--
	}
	var out []toolResult
	for _, m := range msgs[start:] {
		r := toolResult{content: m.text}
		for i := start - 1; i >= 0 && r.name == ""; i-- {
			for _, c := range msgs[i].toolCalls {
				if c.ID == m.toolCallID {
					r.name = c.Function.Name
				}
			}
		}
		if r.name == "" {
			r.name = "tool"
		}
		out = append(out, r)
	}
	return out
}

// checkToolReplies refuses a tool message that answers no call: as OpenAI does,
// each tool message must follow an assistant message with tool_calls (or the
// other tool messages answering it), and its tool_call_id must be the id of
// one of those calls.
func checkToolReplies(msgs []message) *apiError {
	var open []toolCallIn // the calls tool messages may answer here
	for i, m := range msgs {
		switch {
		case m.role == "assistant":
			open = m.toolCalls
		case m.role != "tool":
			open = nil
		case !slices.ContainsFunc(open, func(c toolCallIn) bool { return c.ID == m.toolCallID }):
			return invalidRequest(fmt.Sprintf("messages.[%d].role", i), "",
				"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.")
		}
	}
	return nil
}
