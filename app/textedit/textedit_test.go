package textedit

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// parse reads a text where "|" marks the caret, or "[" and "]" the selection.
func parse(s string) Edit {
	if i := strings.Index(s, "|"); i >= 0 {
		t := s[:i] + s[i+1:]
		n := u16(s[:i])
		return Edit{Text: t, Start: n, End: n}
	}
	i, j := strings.Index(s, "["), strings.Index(s, "]")
	t := s[:i] + s[i+1:j] + s[j+1:]
	return Edit{Text: t, Start: u16(s[:i]), End: u16(s[:j]) - 1}
}

// show writes an Edit in parse's notation.
func show(e Edit) string {
	u := utf16.Encode([]rune(e.Text))
	at := func(i int) string { return string(utf16.Decode(u[:i])) }
	rest := func(i int) string { return string(utf16.Decode(u[i:])) }
	if e.Start == e.End {
		return at(e.Start) + "|" + rest(e.Start)
	}
	return at(e.Start) + "[" + string(utf16.Decode(u[e.Start:e.End])) + "]" + rest(e.End)
}

func u16(s string) int { return len(utf16.Encode([]rune(s))) }

func TestEditingKeys(t *testing.T) {
	tests := []struct {
		name string
		edit func(Edit) Edit
		in   string
		want string
	}{
		{"tab at the caret", Indent, `{"a":|1}`, `{"a":  |1}`},
		{"tab replaces a selection on one line", Indent, `{"a":[12]}`, `{"a":  |}`},
		{"tab indents every selected line", Indent, "{\n[\"a\": 1,\n\"b\"]: 2\n}", "{\n  [\"a\": 1,\n  \"b\"]: 2\n}"},
		{"tab leaves the line after a trailing break", Indent, "[a\n]b", "  [a\n]b"},
		{"tab counts UTF-16 units", Indent, "\"😀\"|", "\"😀\"  |"},
		{"shift+tab outdents the caret's line", Outdent, "{\n    \"a\"|: 1\n}", "{\n  \"a\"|: 1\n}"},
		{"shift+tab outdents every selected line", Outdent, "[  a\n   b\n c]\nd", "[a\n b\nc]\nd"},
		{"shift+tab keeps a caret inside the indentation", Outdent, " | a", "|a"},
		{"shift+tab without indentation changes nothing", Outdent, "a|b", "a|b"},
		{"enter keeps the indentation", Newline, "{\n  \"a\": 1,|\n}", "{\n  \"a\": 1,\n  |\n}"},
		{"enter after an opening brace indents one more", Newline, "{\n  \"a\": [|]\n}", "{\n  \"a\": [\n    |]\n}"},
		{"enter replaces the selection", Newline, "  a[bc]d", "  a\n  |d"},
		{"enter on the first line", Newline, "|x", "\n|x"},
		{"} on a blank line lines up with the opening line", closeBrace, "function f() {\n  if (a) {\n    x();\n    |", "function f() {\n  if (a) {\n    x();\n  }|"},
		{"} closes the outer block after an inner one", closeBrace, "function f() {\n  if (a) {\n  }\n  |", "function f() {\n  if (a) {\n  }\n}|"},
		{"} after code on the line is typed as it is", closeBrace, "  { a: 1 |", "  { a: 1 }|"},
		{"} with no opening bracket outdents one unit", closeBrace, "    |", "  }|"},
		{"} replaces a selection", closeBrace, "  [ab]", "  }|"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := show(tt.edit(parse(tt.in))); got != tt.want {
				t.Errorf("got %q; want %q", got, tt.want)
			}
		})
	}
}

func closeBrace(e Edit) Edit { return Close(e, '}') }

func TestEditingKeysClampTheSelection(t *testing.T) {
	got := Indent(Edit{Text: "a\nb", Start: 9, End: -3})
	if got.Text != "  a\n  b" || got.Start != 2 || got.End != 7 {
		t.Errorf("got %+v; want the whole text indented and selected", got)
	}
}
