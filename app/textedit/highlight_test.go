package textedit

import (
	"strings"
	"testing"
)

// tokens writes tokens as kind:text pairs, the plain ones bare: `kw:function sendInvoices(`.
func tokens(ts []Token) string {
	names := map[Kind]string{Keyword: "kw", Literal: "lit", String: "str", Number: "num", Comment: "com", Regexp: "re", Tag: "tag", Attr: "attr"}
	var b []string
	for _, t := range ts {
		if t.Kind == Plain {
			b = append(b, t.Text)
		} else {
			b = append(b, names[t.Kind]+":"+t.Text)
		}
	}
	return strings.Join(b, "|")
}

func TestHighlightJS(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"keywords, names, strings and numbers",
			`function f(a) { return 'x' + 1.5e3; }`,
			`kw:function| f(a) { |kw:return| |str:'x'| + |num:1.5e3|; }`},
		{"comments", "// note\nx = 1 /* b */", `com:// note|` + "\n" + `x = |num:1| |com:/* b */`},
		{"a regexp after = and after return, a division after a name",
			"r = /a\\/b[/]/g; return /x/; y = a / b / c",
			`r = |re:/a\/b[/]/g|; |kw:return| |re:/x/|; y = a / b / c`},
		{"a template literal with a nested brace and quote", "`a ${ {b: '}'}.b } c` + d",
			"str:`a ${ {b: '}'}.b } c`| + d"},
		{"literals, and a keyword used as a property", "this.default = null", `lit:this|.default = |lit:null`},
		{"an unclosed string ends at the line", "'abc\nx", "str:'abc|\nx"},
		{"an unclosed block comment runs to the end", "a /* b", "a |com:/* b"},
		{"a block comment opening at the very end", "/*", "com:/*"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := HighlightJS(tt.src)
			if got := tokens(ts); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			var whole strings.Builder
			for _, tok := range ts {
				whole.WriteString(tok.Text)
			}
			if whole.String() != tt.src {
				t.Errorf("joined tokens: got %q; want the source back", whole.String())
			}
		})
	}
}

func TestHighlightHTML(t *testing.T) {
	src := `<!-- c --><p class="x" hidden>Hi</p><script>let a = 1;</script><br/>`
	want := `com:<!-- c -->|tag:<p| |attr:class|=|str:"x"| |attr:hidden|tag:>|Hi|tag:</p|tag:>|tag:<script|tag:>|kw:let| a = |num:1|;|tag:</script|tag:>|tag:<br|tag:/>`
	if got := tokens(HighlightHTML(src)); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func FuzzHighlight(f *testing.F) {
	f.Add("function f() { return `a${1}` /x/ }")
	f.Add("<a href='x'><script>/* </script>")
	f.Fuzz(func(t *testing.T, s string) {
		for _, h := range []func(string) []Token{HighlightJS, HighlightHTML} {
			var b strings.Builder
			for _, tok := range h(s) {
				b.WriteString(tok.Text)
			}
			if b.String() != s {
				t.Fatalf("joined tokens %q; want %q", b.String(), s)
			}
		}
	})
}
