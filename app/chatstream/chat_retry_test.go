package chatstream

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/internal/apptest"
)

// chunkEvent is one content chunk of a chat completion stream.
func chunkEvent(s string) string {
	return `data: {"choices":[{"index":0,"delta":{"content":"` + s + `"}}]}` + "\n\n"
}

// ended returns a finished answer with what a reader reported (read) of a response with
// status (0: none came).
func ended(status int, read func(update func(func(*chatSnapshot)))) *Answer {
	a := answerWith("")
	s := chatSnapshot{status: status}
	read(func(f func(*chatSnapshot)) { f(&s) })
	a.apply(s)
	return a
}

func streamed(chunks []string, err error) *Answer {
	return ended(200, func(u func(func(*chatSnapshot))) { readChatStream(&cutReader{chunks, err}, time.Now, u) })
}

func bodied(status int, ctype, body string) *Answer {
	return ended(status, func(u func(func(*chatSnapshot))) { readChatBody(status, ctype, strings.NewReader(body), u) })
}

func proxied(status int, body string) *Answer {
	return ended(status, func(u func(func(*chatSnapshot))) { readProxyError(status, strings.NewReader(body), u) })
}

func TestCanRetry(t *testing.T) {
	const nginx502 = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n"
	stopped := streamed([]string{chunkEvent("Half")}, errors.New("network error"))
	stopped.Stopped = true
	streaming := answerWith("Hal")
	streaming.retry, streaming.Streaming = true, true
	tests := []struct {
		name string
		a    *Answer
		want bool
	}{
		{"a stream whose connection broke", streamed([]string{chunkEvent("Half")}, errors.New("network error")), true},
		{"a stream that ended without its last event", streamed([]string{chunkEvent("Hal")}, io.EOF), true},
		{"an error event mid-stream", streamed([]string{chunkEvent("Par"), `data: {"error":{"message":"overloaded","type":"server_error"}}` + "\n\n"}, io.EOF), true},
		{"Loupe's proxy ended a stream whose API broke", streamed([]string{chunkEvent("Par"), "event: error\ndata: {\"error\":\"chat: the API's stream broke before its end (connection reset); Loupe closed it\",\"check\":\"that the API is up\",\"source\":\"loupe proxy\"}\n\n"}, io.EOF), true},
		{"a complete stream", streamed([]string{chunkEvent("Hi"), "data: [DONE]\n\n"}, io.EOF), false},
		{"a stream of no chat completion chunks", streamed([]string{"data: <html>\n\n"}, io.EOF), false},
		{"no response", ended(0, func(u func(func(*chatSnapshot))) {
			u(func(s *chatSnapshot) { s.netErr, s.retry, s.over = "Failed to fetch", true, true })
		}), true},
		{"400 from the API", bodied(400, "application/json", `{"error":{"message":"bad","code":"context_length_exceeded"}}`), false},
		{"401 from the API", bodied(401, "application/json", `{"error":{"message":"Invalid API key"}}`), false},
		{"404 from the API", bodied(404, "application/json", `{"error":{"message":"no model"}}`), false},
		{"408 from the API", bodied(408, "application/json", `{"error":{"message":"timed out"}}`), true},
		{"429 from the API", bodied(429, "application/json", `{"error":{"message":"slow down"}}`), true},
		{"500 from the API", bodied(500, "application/json", `{"error":{"message":"oops"}}`), true},
		{"nginx's 502 page", bodied(502, "text/html", nginx502), true},
		{"a whole answer cut short", ended(200, func(u func(func(*chatSnapshot))) {
			readChatBody(200, "application/json", &cutReader{[]string{`{"choi`}, errors.New("network error")}, u)
		}), true},
		{"a refusal of Loupe's proxy", proxied(403, `{"error":"not allowed here","check":"apis.chat.allow"}`), false},
		{"a body too large for Loupe's proxy", proxied(413, `{"error":"too large","check":"server.limits.max_body"}`), false},
		{"the API out of the proxy's reach", proxied(502, `{"error":"connection refused","check":"apis.chat.base_url"}`), true},
		{"Loupe's database away", proxied(503, `{"error":"the database is away"}`), true},
		{"Loupe's rate limit", proxied(429, `{"error":"too many calls"}`), true},
		{"a cut answer the user stopped", stopped, false},
		{"an answer still streaming", streaming, false},
		{"no answer at all", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.CanRetry(); got != tt.want {
				t.Errorf("CanRetry: got %v; want %v", got, tt.want)
			}
		})
	}
}

func TestHTMLErrorPageIsNamedNotShown(t *testing.T) {
	a := bodied(502, "text/html", "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>")
	out := renderMessage(t, &Turn{Role: "assistant", Answer: a})
	if !strings.Contains(out, "HTTP 502") || !strings.Contains(out, "“502 Bad Gateway”") || !strings.Contains(out, "a proxy or load balancer on the way") {
		t.Errorf("got %s; want the status and the page's title named", out)
	}
	if strings.Contains(out, "&lt;h1") || strings.Contains(out, "<h1") {
		t.Errorf("got %s; want no markup of the page", out)
	}
	// Without a content type, a body that starts as a page is one too.
	if a := bodied(503, "", "<!DOCTYPE html><html><title>Service Unavailable</title></html>"); a.apiErr == nil || !strings.Contains(a.apiErr.Message, "“Service Unavailable”") {
		t.Errorf("got %+v; want the page's title", a.apiErr)
	}
}

func TestRetryTurns(t *testing.T) {
	cut := &Turn{Role: "assistant", Answer: streamed([]string{chunkEvent("Half")}, errors.New("network error"))}
	done := &Turn{Role: "assistant", Answer: streamed([]string{chunkEvent("Hi"), "data: [DONE]\n\n"}, io.EOF)}
	q1, q2 := &Turn{Role: "user", Text: "one"}, &Turn{Role: "user", Text: "two"}
	tests := []struct {
		name       string
		turns      []*Turn
		wantBefore int
		wantOK     bool
	}{
		{"the last answer was cut", []*Turn{q1, done, q2, cut}, 3, true},
		{"the last answer is complete", []*Turn{q1, cut, q2, done}, 0, false},
		{"a cut answer, then a question", []*Turn{q1, cut, q2}, 0, false},
		{"nothing yet", nil, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, failed, ok := RetryTurns(tt.turns)
			if ok != tt.wantOK || len(before) != tt.wantBefore {
				t.Fatalf("got %d turns, ok %v; want %d, %v", len(before), ok, tt.wantBefore, tt.wantOK)
			}
			if !ok {
				return
			}
			if failed != tt.turns[len(tt.turns)-1] {
				t.Errorf("got failed turn %+v; want the last", failed)
			}
			// The new turn goes where the failed one was, in a copy: the conversation the
			// failed turn belongs to is left as it was.
			_ = append(before, &Turn{Role: "assistant"})
			if tt.turns[len(tt.turns)-1] != failed {
				t.Error("appending to the turns sent again overwrote the failed turn")
			}
		})
	}
}

// TestRetrySendsTheSameConversation: Send again sends exactly the request that failed (the
// partial answer is not part of it), and the turn sent again shows the cut text until the new
// answer says something; the conversation afterwards holds the new answer only.
func TestRetrySendsTheSameConversation(t *testing.T) {
	s := Settings{Model: "v0-1.0-md", System: "Be brief.", Stream: true, ToolChoice: "auto"}
	turns := []*Turn{{Role: "user", Text: "a todo list"}}
	first, err := Body(s, turns)
	if err != nil {
		t.Fatal(err)
	}
	cut := streamed([]string{chunkEvent("Here is a to")}, errors.New("network error"))
	turns = append(turns, &Turn{Role: "assistant", Answer: cut})
	before, failed, ok := RetryTurns(turns)
	if !ok {
		t.Fatal("a cut answer cannot be sent again")
	}
	again, err := Body(s, before)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(first) {
		t.Errorf("sent again: got %s; want the request that failed, %s", again, first)
	}
	next := answerWith("")
	next.Streaming = true
	retried := Retry(failed, next)
	if retried.Shown() != cut {
		t.Error("while the new answer has said nothing, the turn does not show the cut one")
	}
	out := renderMessage(t, retried)
	if !strings.Contains(out, "Here is a to") || !strings.Contains(out, "Sending again") {
		t.Errorf("got %s; want the cut text shown with a note while sending again", out)
	}
	// The new answer fails too, before saying anything: the cut text stays, and a third try
	// replaces the same text.
	next.Streaming, next.NetErr, next.retry = false, "Failed to fetch", true
	if retried.Shown() != cut || !retried.Answer.CanRetry() {
		t.Error("a retry that failed before saying anything lost the cut text, or cannot be sent again")
	}
	if third := Retry(retried, answerWith("")); third.Earlier != cut {
		t.Errorf("a third try replaces %v; want the cut answer", third.Earlier)
	}
	// Once the new answer speaks, it is what the turn shows and what the conversation holds.
	next.md.Write("Here is a todo list.")
	body, _ := Body(s, append(before, retried))
	if retried.Shown() != next || !strings.Contains(string(body), "Here is a todo list.") || strings.Contains(string(body), `"Here is a to"`) {
		t.Errorf("got %s; want the new answer only", body)
	}
	// A failed answer that had said nothing leaves nothing to show.
	if got := Retry(&Turn{Role: "assistant", Answer: answerWith("")}, answerWith("")); got.Earlier != nil {
		t.Errorf("got an earlier answer %v; want none", got.Earlier)
	}
}

func TestSendAgainButton(t *testing.T) {
	cut := &Turn{Role: "assistant", Answer: streamed([]string{chunkEvent("Half")}, errors.New("network error"))}
	with := apptest.RenderUI(t, NewMessage(cut, 1, 0).WithRetry(func(app.Context) {}))
	if !strings.Contains(with, `id="chat-retry"`) || !strings.Contains(with, ">Send again<") || !strings.Contains(with, "Stream cut") {
		t.Errorf("got %s; want the cut explained and a Send again button", with)
	}
	if !strings.Contains(with, "the connection broke before the answer&#39;s end (network error)") &&
		!strings.Contains(with, "the connection broke before the answer's end (network error)") {
		t.Errorf("got %s; want the cause named", with)
	}
	if without := renderMessage(t, cut); strings.Contains(without, "chat-retry") {
		t.Errorf("got %s; want no button where the view gives none", without)
	}
}

func TestTranscriptKeepsCutAnswersCut(t *testing.T) {
	cut := streamed([]string{chunkEvent("Half")}, errors.New("network error"))
	none := ended(0, func(u func(func(*chatSnapshot))) {
		u(func(s *chatSnapshot) { s.netErr, s.retry, s.over = "Failed to fetch", true, true })
	})
	refused := bodied(401, "application/json", `{"error":{"message":"Invalid API key"}}`)
	turns := []*Turn{
		{Role: "user", Text: "one"}, {Role: "assistant", Answer: cut},
		{Role: "user", Text: "two"}, {Role: "assistant", Answer: refused},
		{Role: "user", Text: "three"}, {Role: "assistant", Answer: none},
	}
	msgs := Transcript(turns)
	got, _ := json.Marshal(msgs)
	want := `[{"role":"user","content":"one"},{"role":"assistant","content":"Half","cut":true},{"role":"user","content":"two"},{"role":"user","content":"three"},{"role":"assistant","cut":true}]`
	if string(got) != want {
		t.Errorf("got %s; want %s", got, want)
	}
	back := FromTranscript(msgs, Markdown())
	if _, _, ok := RetryTurns(back); !ok {
		t.Error("a chat opened from the link cannot send its failed answer again")
	}
	if out := renderMessage(t, back[1]); !strings.Contains(out, "Stream cut") || !strings.Contains(out, "cut short when the link was made") {
		t.Errorf("got %s; want the restored answer shown cut", out)
	}
	if out := renderMessage(t, back[4]); !strings.Contains(out, "No answer had come when the link was made") {
		t.Errorf("got %s; want the restored failure shown", out)
	}
	if again, _ := json.Marshal(Transcript(back)); string(again) != want {
		t.Errorf("a link of the reopened chat: got %s; want %s", again, want)
	}
}
