package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"loupe/server"
)

// TestOpenAINodeParse runs openai-node's structured outputs against the chat sandbox through
// Loupe's proxy: .parse() and .stream() give the schema's value parsed, json_object gives an
// object, and a tool message answering no call is refused with OpenAI's 400.
func TestOpenAINodeParse(t *testing.T) {
	t.Parallel()
	requireTools(t)
	srv := newServer(t, server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ts := httptest.NewServer(srv)
	defer func() { ts.Close(); srv.Close() }()
	script, _ := filepath.Abs("testdata/openai_parse.mjs")
	cmd := exec.Command("node", script, ts.URL+"/proxy/chat/v1")
	cmd.Dir = "." // e2e/: node_modules is here
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	got := map[string]json.RawMessage{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		var line struct {
			Name  string          `json:"name"`
			Value json.RawMessage `json:"value"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Name != "" {
			got[line.Name] = line.Value
		}
	}
	weather := `{"city":"example","unit":"celsius","days":[{"date":"2026-01-15"}]}`
	for _, tc := range []struct{ name, want string }{
		{"parse", weather},
		{"stream", weather},
		{"json_object", `["title","plan","html"]`},
		{"unknown tool_call_id", `{"status":400,"message":"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.","param":"messages.[1].role"}`},
	} {
		var g, w any
		if json.Unmarshal(got[tc.name], &g) != nil || json.Unmarshal([]byte(tc.want), &w) != nil || !reflect.DeepEqual(g, w) {
			t.Errorf("%s: got %s; want %s\n(all output: %s)", tc.name, got[tc.name], tc.want, out)
		}
	}
}
