package chat

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// TestToolArgumentsCorpus generates arguments for every schema of
// testdata/tool_schemas.jsonl (one {name, prompt, schema} a line) and checks
// them with a JSON Schema validator, formats asserted.
func TestToolArgumentsCorpus(t *testing.T) {
	f, err := os.Open("testdata/tool_schemas.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	n := 0
	for sc.Scan() {
		var tc struct {
			Name   string          `json:"name"`
			Prompt string          `json:"prompt"`
			Schema json.RawMessage `json:"schema"`
		}
		if err := json.Unmarshal(sc.Bytes(), &tc); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		n++
		t.Run(tc.Name, func(t *testing.T) {
			args, err := toolArguments(tc.Schema, factsOf(tc.Prompt))
			if err != nil {
				t.Fatalf("toolArguments: %v", err)
			}
			validate(t, string(tc.Schema), args)
		})
	}
	if n < 50 {
		t.Errorf("corpus: got %d schemas; want at least 50", n)
	}
}

// TestPatternFromPrompt wants a pattern's value taken from the prompt when it
// holds one that matches, and a built match otherwise.
func TestPatternFromPrompt(t *testing.T) {
	tests := []struct{ pattern, prompt, want string }{
		{`^([01]\d|2[0-3]):[0-5]\d$`, "wake weekdays at 07:30, gym", "07:30"},
		{`^([01]\d|2[0-3]):[0-5]\d$`, "wake weekdays gym", "00:00"},
		{`^\d+\.\d+\.\d+$`, "Deploy version 1.4.2.", "1.4.2"},
		{`^[A-Z]{3}-\d{4}$`, "x", "AAA-0000"},
		{`^(fast|slow)$`, "x", "fast"},
	}
	for _, tt := range tests {
		got, ok := patternString(tt.pattern, factsOf(tt.prompt).patternCandidates(), 0, -1, 0)
		if !ok || got != tt.want {
			t.Errorf("%s with %q: got %q, %v; want %q", tt.pattern, tt.prompt, got, ok, tt.want)
		}
	}
	if _, ok := patternString(`^(?=a)b$`, nil, 0, -1, 0); ok {
		t.Errorf("a lookahead pattern: got ok; want not a Go expression")
	}
}
