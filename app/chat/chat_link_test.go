package chat

import (
	"testing"

	"loupe/app/chatstream"
)

func TestChatLinkRoundTrip(t *testing.T) {
	def := chatstream.Settings{Model: "v0-1.0-md", Stream: true, ToolChoice: "auto"}
	tests := []struct {
		name  string
		s     chatstream.Settings
		draft string
		want  string
	}{
		{"the defaults", def, "", "v1"},
		{"a draft", def, "a todo list & more", "v1&draft=a%20todo%20list%20%26%20more"},
		{"every setting", chatstream.Settings{Model: "v0-1.5-md", System: "Be brief.", Stream: false, Tools: `[{"type":"function"}]`, ToolChoice: "required"}, "hi",
			"v1&draft=hi&model=v0-1.5-md&stream=false&system=Be%20brief.&tool_choice=required&tools=%5B%7B%22type%22%3A%22function%22%7D%5D"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := encodeChatLink(tt.s, def, tt.draft)
			if got != tt.want {
				t.Errorf("encode: got %q; want %q", got, tt.want)
			}
			s, draft, ok := decodeChatLink("#"+got, def)
			if !ok || s != tt.s || draft != tt.draft {
				t.Errorf("decode(%q): got %+v %q %v; want %+v %q", got, s, draft, ok, tt.s, tt.draft)
			}
		})
	}
	for _, frag := range []string{"", "#", "#v2&model=x", "#v1x", "#model=x"} {
		if _, _, ok := decodeChatLink(frag, def); ok {
			t.Errorf("decode(%q): ok; want not a chat link", frag)
		}
	}
	if s, _, ok := decodeChatLink("#v1&api_key=secret&model=m", def); !ok || s.Model != "m" {
		t.Errorf("decode with an unknown name: got %+v %v; want the model read and the rest ignored", s, ok)
	}
}
