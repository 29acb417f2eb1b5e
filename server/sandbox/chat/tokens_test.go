package chat

import (
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{}},
		{"Hello, world!", []string{"Hello", ",", " world", "!"}},
		{"internationalization", []string{"internat", "ionaliza", "tion"}},
		{"a  b", []string{"a", "  ", "b"}},
		{"if (x) {\n    return 1;\n}", []string{"if", " (", "x", ")", " {", "\n    ", "return", " 1", ";", "\n", "}"}},
		{"64×48 ünïcode", []string{"64", "×", "48", " ünïcode"}},
		{" ", []string{" "}},
	}
	for _, tt := range tests {
		got := tokenize(tt.in)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("tokenize(%q) = %q; want %q", tt.in, got, tt.want)
		}
		if n := countTokens(tt.in); n != len(tt.want) {
			t.Errorf("countTokens(%q) = %d; want %d", tt.in, n, len(tt.want))
		}
		for k := range len(tt.want) + 2 {
			want := tt.want[:min(k, len(tt.want))]
			if got, n := firstTokens(tt.in, k); got != strings.Join(want, "") || n != len(want) {
				t.Errorf("firstTokens(%q, %d) = %q, %d; want %q, %d", tt.in, k, got, n, strings.Join(want, ""), len(want))
			}
		}
	}
}

func TestTokenizeRoundTrip(t *testing.T) {
	h := New(Options{Key: testKey})
	text := complete(t, h, userBody("a dashboard with a form and a gallery", nil)).content()
	toks := tokenize(text)
	if got := strings.Join(toks, ""); got != text {
		t.Fatal("tokens do not concatenate to the text")
	}
	// About four to five characters per token, like real tokenizers.
	if ratio := float64(len(text)) / float64(len(toks)); ratio < 2.5 || ratio > 6 {
		t.Errorf("got %.1f bytes per token; want between 2.5 and 6", ratio)
	}
}

func FuzzTokenize(f *testing.F) {
	f.Add("Hello, world!\n\n  x")
	f.Add(" \t\n日本語 text")
	f.Fuzz(func(t *testing.T, s string) {
		toks := tokenize(s)
		if strings.Join(toks, "") != s {
			t.Fatalf("tokens of %q do not concatenate back", s)
		}
		for _, tok := range toks {
			if tok == "" {
				t.Fatalf("empty token in %q", s)
			}
		}
		if countTokens(s) != len(toks) {
			t.Fatalf("countTokens(%q) = %d; want %d", s, countTokens(s), len(toks))
		}
	})
}
