package chat

import (
	"reflect"
	"strings"
	"testing"

	"loupe/app/chatstream"
)

func TestChatLinkRoundTrip(t *testing.T) {
	def := chatstream.Settings{Model: "v0-1.0-md", Stream: true, ToolChoice: "auto"}
	talk := []chatstream.LinkMessage{
		{Role: "user", Content: "a todo list & more", Image: "sketch.png"},
		{Role: "assistant", Content: "Here:\n```html\n<p>hi</p>\n```", ToolCalls: []chatstream.LinkToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
		{Role: "tool", Content: `{"temp":21}`, ToolCallID: "call_1", Name: "get_weather"},
	}
	tests := []struct {
		name  string
		s     chatstream.Settings
		draft string
		msgs  []chatstream.LinkMessage
		want  string
	}{
		{"the defaults", def, "", nil, "v1"},
		{"a draft", def, "a todo list & more", nil, "v1&draft=a%20todo%20list%20%26%20more"},
		{"every setting", chatstream.Settings{Model: "v0-1.5-md", System: "Be brief.", Stream: false, Tools: `[{"type":"function"}]`, ToolChoice: "required"}, "hi", nil,
			"v1&draft=hi&model=v0-1.5-md&stream=false&system=Be%20brief.&tool_choice=required&tools=%5B%7B%22type%22%3A%22function%22%7D%5D"},
		{"the conversation", def, "and now?", talk, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := encodeChatLink(tt.s, def, tt.draft, tt.msgs)
			if tt.want != "" && got != tt.want {
				t.Errorf("encode: got %q; want %q", got, tt.want)
			}
			if strings.ContainsAny(got, " \"{}#") {
				t.Errorf("encode: got %q; want every special character escaped", got)
			}
			l, ok := decodeChatLink("#"+got, def)
			if !ok || l.settings != tt.s || l.draft != tt.draft || !reflect.DeepEqual(l.msgs, tt.msgs) || l.problem != "" {
				t.Errorf("decode(%q): got %+v %v; want %+v %q %+v", got, l, ok, tt.s, tt.draft, tt.msgs)
			}
		})
	}
	for _, frag := range []string{"", "#", "#v2&model=x", "#v1x", "#model=x"} {
		if _, ok := decodeChatLink(frag, def); ok {
			t.Errorf("decode(%q): ok; want not a chat link", frag)
		}
	}
	if l, ok := decodeChatLink("#v1&api_key=secret&model=m", def); !ok || l.settings.Model != "m" {
		t.Errorf("decode with an unknown name: got %+v %v; want the model read and the rest ignored", l, ok)
	}
}

// TestChatLinkKeepsWhatItCanRead: a stray % or a conversation that is not JSON loses only
// that part; the settings and the draft are kept and the problem is named.
func TestChatLinkKeepsWhatItCanRead(t *testing.T) {
	def := chatstream.Settings{Model: "v0-1.0-md", Stream: true, ToolChoice: "auto"}
	l, ok := decodeChatLink("#v1&model=m&draft=50%&system=s", def)
	if !ok || l.settings.Model != "m" || l.settings.System != "s" || l.problem == "" {
		t.Errorf("a stray %%: got %+v %v; want model and system kept and the problem named", l, ok)
	}
	l, ok = decodeChatLink("#v1&model=m&msgs=%5Bnot%20json", def)
	if !ok || l.settings.Model != "m" || l.msgs != nil || !strings.Contains(l.problem, "conversation") {
		t.Errorf("a broken conversation: got %+v %v; want the model kept, no messages and the problem named", l, ok)
	}
}

// TestTranscriptRoundTrip: the messages a link carries come back as turns that say the same.
func TestTranscriptRoundTrip(t *testing.T) {
	talk := []chatstream.LinkMessage{
		{Role: "user", Content: "weather?"},
		{Role: "assistant", ToolCalls: []chatstream.LinkToolCall{{ID: "c1", Name: "get_weather", Arguments: "{}"}}},
		{Role: "tool", Content: "21", ToolCallID: "c1", Name: "get_weather"},
		{Role: "assistant", Content: "It is **21**."},
	}
	turns := chatstream.FromTranscript(talk, chatstream.Markdown())
	if got := chatstream.Transcript(turns); !reflect.DeepEqual(got, talk) {
		t.Errorf("got %+v; want %+v", got, talk)
	}
	if a := turns[1].Answer; a == nil || !a.Restored || a.Streaming || !a.Answered["c1"] {
		t.Errorf("the restored answer: got %+v; want finished, restored, its call answered", a)
	}
}
