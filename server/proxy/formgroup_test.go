package proxy

import (
	"strings"
	"testing"
)

// TestFormAnchors: a group of forms is searched by the rarest byte of their common beginning
// (the sandbox key's 'x', an upper-case letter of its base64 forms), and every occurrence is
// still masked wherever the anchor byte also occurs around it: at the text's start, before the
// anchor's offset, right after an occurrence, in runs of it.
func TestFormAnchors(t *testing.T) {
	m := newMasker([]string{"loupe-sandbox-key", "loupe-sandbox-secret"})
	for _, g := range m.byFirst {
		switch g.first {
		case 'l':
			if g.anchor != 'x' || g.at != len("loupe-sandbo") {
				t.Errorf("group l: got anchor %q at %d; want 'x' at %d", g.anchor, g.at, len("loupe-sandbo"))
			}
		case 'b':
			if g.anchor < 'A' || g.anchor > 'Z' {
				t.Errorf("group b (base64): got anchor %q; want an upper-case letter", g.anchor)
			}
		}
		if !strings.HasPrefix(string(g.forms[0][g.at:]), string(g.anchor)) {
			t.Errorf("group %q: anchor %q is not at %d of %q", g.first, g.anchor, g.at, g.forms[0])
		}
	}
	key, secret := "loupe-sandbox-key", "loupe-sandbox-secret"
	tests := []string{
		key,
		"x" + key,
		"xxxxxxxxxxxxxxxx" + key + "xxxx",
		key + key,
		"loupe-sandbox-" + key,
		"lloupe-sandbox-secret " + secret + "x",
		`{"index":0,"k":"` + key + `","x":"bG91cGUtc2FuZGJveC1rZXk="}`,
		"loupe-sandbox-ke",
		"",
	}
	for _, in := range tests {
		want := []byte(in)
		for _, f := range m.secrets { // the plain definition: every occurrence of every form
			for i := 0; i+len(f) <= len(in); i++ {
				if in[i:i+len(f)] == string(f) {
					copy(want[i:], strings.Repeat("*", len(f)))
				}
			}
		}
		got := []byte(in)
		m.mask(got)
		if string(got) != string(want) {
			t.Errorf("mask(%q): got %q; want %q", in, got, want)
		}
		if m.finds([]byte(in)) != (in != string(want)) || m.holds(in) != (in != string(want)) {
			t.Errorf("finds/holds(%q): got %v/%v; want %v", in, m.finds([]byte(in)), m.holds(in), in != string(want))
		}
	}
}
