package markdown

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// corpus holds answers shaped like a model's: plans, lists, tables, code, quotes, raw HTML.
var corpus = []string{
	"# Plan\n\n1. Build the page\n2. Add the script\n\n## Files\n\n- index.html\n- app.js\n\nHere is the app:\n```html\n<!doctype html>\n<script>alert(\"x\")</script>\n\n<p>hi</p>\n```\nThat's it.\n",
	"A loose list:\n\n- one\n\n- two\n\n- three\n\nAfter the list.\n\n* other\n* list\n",
	"| a | b |\n|:--|--:|\n| 1 | 2 |\n\n> quote\nlazy line\n\n> another\n\n---\n\nSetext\n======\n\ntext\n",
	"Indented code:\n\n    line 1\n\n    line 2\nafter\n\n~~~~go\nfunc main() {}\n~~~\nstill code\n~~~~\n\n**bold** _em_ ~~gone~~ `code` https://example.com/x?y=1\n",
	"<div>\n\nraw *html* block\n\n</div>\n\n<!-- a comment\n\nspanning -->\n\n<script>\nalert(1)\n\n</script>\n\n<img src=x onerror=alert(1)>\n",
	"See [the docs][docs] and [more].\n\n- [x] done\n- [ ] todo\n\n[docs]: https://example.com/docs\n[more]: https://example.com/more \"More\"\n",
	"1. first\n\n   ```js\n   let a = 1\n\n   let b = 2\n   ```\n\n2. second\n\n   continued\n\nEnd.\n",
	"Unterminated fence:\n\n```python\ndef f():\n    return \"<b>\"\n",
	"# Title\nText right after.\n## Sub\n- item\n# Next\n\n```\n```\n\n```\nx\n````\n",
	"trailing spaces  \nhard break\\\nand \\<escaped\\>\n\n\n\n\tTabbed code\n\n- a\n\t- b\n\n  - c\n",
}

// feed writes text in pieces of random sizes and returns the stream.
func feed(text string, rng *rand.Rand) *Stream {
	s := NewStream(NewRenderer())
	for len(text) > 0 {
		n := min(1+rng.IntN(12), len(text))
		s.Write(text[:n])
		text = text[n:]
		if rng.IntN(4) == 0 {
			s.Blocks()
		}
	}
	s.Close()
	return s
}

func TestStreamEqualsWholeDocument(t *testing.T) {
	r := NewRenderer()
	for i, doc := range corpus {
		want := r.Render(doc)
		for seed := range uint64(20) {
			got := feed(doc, rand.New(rand.NewPCG(seed, uint64(i)))).HTML()
			if got != want {
				t.Fatalf("corpus[%d], seed %d:\ngot  %q\nwant %q", i, seed, got, want)
			}
		}
	}
}

func TestStreamCutsBlocks(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int // completed blocks plus the tail
	}{
		{"paragraphs", "a\n\nb\n\nc", 3},
		{"a heading stands alone", "# H\ntext\n", 2},
		{"a fence interrupts a paragraph", "text\n```\ncode\n```\nmore\n", 3},
		{"a loose list stays whole", "- a\n\n- b\n\n- c\n", 1},
		{"an open fence is one block", "```\na\n\nb\n\nc", 1},
		{"a fence in a list item stays in it", "1. a\n\n   ```\n   x\n\ny\n   ```\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStream(NewRenderer())
			s.Write(tt.text)
			if got := len(s.Blocks()); got != tt.want {
				t.Errorf("got %d blocks; want %d", got, tt.want)
			}
		})
	}
}

func TestStreamCodeBlocks(t *testing.T) {
	s := NewStream(NewRenderer())
	s.Write("Intro\n```html\n<p>hi</p>\n```\n```js\nlet x")
	blocks := s.Blocks()
	if len(blocks) != 3 {
		t.Fatalf("got %d blocks; want 3", len(blocks))
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"closed block is code", blocks[1].Code, true},
		{"closed block language", blocks[1].Lang, "html"},
		{"closed block text", blocks[1].Text, "<p>hi</p>\n"},
		{"closed block is not open", blocks[1].Open, false},
		{"open block language", blocks[2].Lang, "js"},
		{"open block text", blocks[2].Text, "let x"},
		{"open block is open", blocks[2].Open, true},
		{"open block html", blocks[2].HTML(), "<pre><code class=\"language-js\">let x\n</code></pre>\n"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q; want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestStreamOpenCodeMatchesGoldmark(t *testing.T) {
	r := NewRenderer()
	for _, code := range []string{"", "x", "a\n", "<b class=\"c\">&amp;'</b>\n\n  y"} {
		for _, lang := range []string{"", "html", "c++", "we\"ird"} {
			src := "```" + lang + "\n" + code
			s := NewStream(r)
			s.Write(src)
			got := s.Blocks()[0].HTML()
			if want := r.Render(src); got != want {
				t.Errorf("lang %q code %q: got %q; want %q", lang, code, got, want)
			}
		}
	}
}

func TestStreamKeepsCompletedBlocks(t *testing.T) {
	s := NewStream(NewRenderer())
	s.Write("first paragraph\n\nsecond")
	before := s.Blocks()[0].HTML()
	s.Write(" grows\n\nthird")
	after := s.Blocks()[0].HTML()
	if before != after || len(s.done) != 2 {
		t.Errorf("got %q then %q with %d completed blocks; want the same HTML and 2", before, after, len(s.done))
	}
}

// FuzzStreamEqualsWhole builds answers from Markdown-ish lines and checks that streaming them
// in pieces renders what the whole document renders.
func FuzzStreamEqualsWhole(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint64(1))
	f.Add([]byte{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}, uint64(2))
	lines := []string{"text", "", "- item", "  nested", "1. one", "```", "```html", "~~~", "    code",
		"# head", "> quote", "| a | b |", "|---|---|", "<div>", "</div>", "<!--", "-->", "***",
		"===", "[r]: https://x.y", "[r] ref", "<script>", "</script>", "\tx", "   ```", "* star"}
	r := NewRenderer()
	f.Fuzz(func(t *testing.T, picks []byte, seed uint64) {
		if len(picks) > 200 {
			t.Skip("the cost of one huge open block is quadratic by design")
		}
		var b strings.Builder
		for _, p := range picks {
			b.WriteString(lines[int(p)%len(lines)])
			b.WriteByte('\n')
		}
		doc := b.String()
		want := r.Render(doc)
		if got := feed(doc, rand.New(rand.NewPCG(seed, 0))).HTML(); got != want {
			t.Fatalf("doc %q:\ngot  %q\nwant %q", doc, got, want)
		}
	})
}
