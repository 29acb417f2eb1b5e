package chat

import (
	"strings"
	"testing"

	"loupe/app/chatstream"
)

// TestSendTurns: the request preview shows what the next press sends: with a message typed,
// Send's (the conversation, the cut answer's text included, and the message); with none and a
// last answer that can be sent again, Send again's (the conversation before it).
func TestSendTurns(t *testing.T) {
	cut := chatstream.FromTranscript([]chatstream.LinkMessage{
		{Role: "user", Content: "a todo list"},
		{Role: "assistant", Content: "Here is a to", Cut: true},
	}, chatstream.Markdown())
	done := chatstream.FromTranscript([]chatstream.LinkMessage{
		{Role: "user", Content: "a todo list"},
		{Role: "assistant", Content: "Here is a todo list."},
	}, chatstream.Markdown())
	tests := []struct {
		name      string
		turns     []*chatstream.Turn
		draft     string
		live      bool
		wantAgain bool
		want      []string // in the body, in order
		wantNot   string
	}{
		{"a cut answer, nothing typed", cut, "", false, true, []string{`"content":"a todo list"`}, "Here is a to"},
		{"a cut answer, only spaces typed", cut, "  ", false, true, []string{`"content":"a todo list"`}, "Here is a to"},
		{"a cut answer, a message typed", cut, "and now?", false, false, []string{`"content":"a todo list"`, `"content":"Here is a to"`, `"content":"and now?"`}, ""},
		{"a finished answer, nothing typed", done, "", false, false, []string{`"content":"a todo list"`, `"content":"Here is a todo list."`}, ""},
		{"an answer under way", cut, "", true, false, []string{`"content":"a todo list"`, `"content":"Here is a to"`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newChatView(nil, nil)
			v.turns, v.draft = tt.turns, tt.draft
			if tt.live {
				v.live = tt.turns[len(tt.turns)-1].Answer // any answer: it stands for one streaming
			}
			turns, again := v.sendTurns()
			if again != tt.wantAgain {
				t.Errorf("again: got %v; want %v", again, tt.wantAgain)
			}
			req, problems := v.previewRequest()
			body := string(req.Body)
			if problems != 0 {
				t.Fatalf("got %d problems; want none", problems)
			}
			want, _ := chatstream.Body(v.settings, turns)
			if body != string(want) {
				t.Errorf("preview body %s; want what is sent, %s", body, want)
			}
			at := 0
			for _, w := range tt.want {
				i := strings.Index(body[at:], w)
				if i < 0 {
					t.Fatalf("got %s; want %s after byte %d", body, w, at)
				}
				at += i + len(w)
			}
			if tt.wantNot != "" && strings.Contains(body, tt.wantNot) {
				t.Errorf("got %s; want no %q", body, tt.wantNot)
			}
			if len(v.turns) != len(tt.turns) {
				t.Errorf("the preview changed the conversation: %d turns; want %d", len(v.turns), len(tt.turns))
			}
		})
	}
}
