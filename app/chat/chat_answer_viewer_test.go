package chat

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func TestChatAnswerViewerFoldsStreamsAndCompletions(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"a stream", "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}\n\n" +
			"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
			[]string{"folded from 3 stream events · finish_reason stop", "Hello"}},
		{"a completion with a tool call", `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":"tool_calls"}]}`,
			[]string{"finish_reason tool_calls", "get_weather", "{&#34;city&#34;:&#34;Paris&#34;}", "id call_1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := app.HTMLString(chatAnswerViewer(nil, 200, []byte(tc.body)))
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("got %s\nwant it to contain %q", got, w)
				}
			}
		})
	}
}
