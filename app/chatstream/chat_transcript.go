package chatstream

import (
	"loupe/app/markdown"
	"loupe/app/sse"
)

// LinkMessage is one message of a conversation as a link carries it (app/chat's Copy link):
// what was said, in the API's own terms, without the answer's live state. An attached image is
// left out (a data URL of megabytes does not belong in an address); Image names it.
type LinkMessage struct {
	// Role is "user", "assistant" or "tool".
	Role string `json:"role"`
	// Content is the text: the question, the answer's Markdown, the tool's result.
	Content string `json:"content,omitempty"`
	// ToolCalls are an answer's calls of the tools.
	ToolCalls []LinkToolCall `json:"tool_calls,omitempty"`
	// ToolCallID and Name are the call a tool result answers, and its function.
	ToolCallID string `json:"tool_call_id,omitempty"`
	Name       string `json:"name,omitempty"`
	// Image is the name of the image the question had attached, which the link leaves out.
	Image string `json:"image,omitempty"`
	// Cut marks an answer that ended early, in a way sending again may mend (Answer.CanRetry):
	// its stream was cut (Content is what arrived), or no answer came (no Content). The chat
	// opened from the link shows it so, with Send again.
	Cut bool `json:"cut,omitempty"`
}

// LinkToolCall is one call of a tool in an answer.
type LinkToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Transcript returns the conversation's finished messages, for a link: each answer as it
// shows (Turn.Shown). An answer still streaming, or one that failed before saying anything
// for a reason sending again would not mend, is left out; one that ended early otherwise is
// marked Cut.
func Transcript(turns []*Turn) []LinkMessage {
	var out []LinkMessage
	for _, t := range turns {
		switch t.Role {
		case "user":
			m := LinkMessage{Role: "user", Content: t.Text}
			if t.Image != nil {
				m.Image = t.Image.Name
			}
			out = append(out, m)
		case "tool":
			out = append(out, LinkMessage{Role: "tool", Content: t.Text, ToolCallID: t.ToolCallID, Name: t.ToolName})
		case "assistant":
			if t.Answer == nil || t.Answer.Streaming {
				continue
			}
			a := t.Shown()
			m := LinkMessage{Role: "assistant", Content: a.md.Text(), Cut: a.CanRetry()}
			for _, c := range a.Calls {
				m.ToolCalls = append(m.ToolCalls, LinkToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
			}
			if m.Content != "" || len(m.ToolCalls) > 0 || m.Cut {
				out = append(out, m)
			}
		}
	}
	return out
}

// FromTranscript makes the turns of a conversation a link carried: each answer finished, as
// it was, marked as restored (Metrics says so rather than timings it does not have), its tool
// calls answered when a tool result follows; one marked Cut is shown cut and can be sent again.
func FromTranscript(msgs []LinkMessage, r *markdown.Renderer) []*Turn {
	var turns []*Turn
	answered := map[string]bool{}
	for _, m := range msgs {
		if m.Role == "tool" {
			answered[m.ToolCallID] = true
		}
	}
	for _, m := range msgs {
		switch m.Role {
		case "user":
			turns = append(turns, &Turn{Role: "user", Text: m.Content, LeftOutImage: m.Image})
		case "tool":
			turns = append(turns, &Turn{Role: "tool", Text: m.Content, ToolCallID: m.ToolCallID, ToolName: m.Name})
		case "assistant":
			a := &Answer{md: markdown.NewStream(r), Answered: map[string]bool{}, Restored: true, Status: 200}
			if m.Cut {
				a.Cut, a.retry = "cut before the link was made", true
			}
			a.md.Write(m.Content)
			a.md.Close()
			for i, c := range m.ToolCalls {
				a.Calls = append(a.Calls, sse.ToolCall{Index: i, ID: c.ID, Type: "function", Name: c.Name, Arguments: c.Arguments})
				a.Answered[c.ID] = answered[c.ID]
			}
			turns = append(turns, &Turn{Role: "assistant", Answer: a})
		}
	}
	return turns
}
