package chat

import (
	"fmt"
	"testing"
)

// TestAnswerStopsAtBudget checks that an answer generated only up to its budget (markdown's
// early stop) is, once cut, exactly the whole answer cut at the same budget: the same text,
// token count and finish_reason, for every budget from 1 to past the answer's plan.
func TestAnswerStopsAtBudget(t *testing.T) {
	conversations := map[string][]message{
		"hello":       {{role: "user", text: "hello"}},
		"todo":        {{role: "user", text: "a todo list app"}},
		"updated":     {{role: "user", text: "a budget tracker"}, {role: "assistant", text: "Here's the app."}, {role: "user", text: "add a chart"}},
		"tool result": {{role: "user", text: "weather dashboard"}, {role: "tool", text: "{\"temp\": 21, \"sky\": \"clear\"}", toolCallID: "call_1"}},
	}
	for name, msgs := range conversations {
		seed := [32]byte{byte(len(name))}
		whole := answerText(msgs, seed, 1<<30)
		stopped := 0
		for budget := 1; budget <= 400; budget++ {
			text := answerText(msgs, seed, budget)
			if len(text) < len(whole) {
				stopped++
			}
			got, want := cut(reply{content: text}, budget), cut(reply{content: whole}, budget)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s, budget %d: got %+v; want %+v", name, budget, got, want)
			}
		}
		if stopped == 0 {
			t.Errorf("%s: no budget from 1 to 400 stopped the answer early; want the short ones to", name)
		}
	}
}

func TestSampleDate(t *testing.T) {
	for _, tt := range []struct {
		month, day int
		want       string
	}{{1, 1, "2026-01-01"}, {9, 10, "2026-09-10"}, {12, 28, "2026-12-28"}} {
		if got := sampleDate(tt.month, tt.day); got != tt.want {
			t.Errorf("sampleDate(%d, %d) = %q; want %q", tt.month, tt.day, got, tt.want)
		}
	}
}
