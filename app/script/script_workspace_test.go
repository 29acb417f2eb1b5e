package script

import "testing"

// TestLineSpan checks the offsets the workspace selects for a line, counted in UTF-16 units as
// a textarea counts them.
func TestLineSpan(t *testing.T) {
	text := "function f() {\n  return '€😀';\n}\n"
	tests := []struct {
		name               string
		line               int
		wantStart, wantEnd int
	}{
		{"the first line", 1, 0, 14},
		{"a line with a character outside the BMP", 2, 15, 30},
		{"the closing line", 3, 31, 32},
		{"past the end: the last (empty) line", 9, 33, 33},
		{"before the start: the first line", 0, 0, 14},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, end := lineSpan(text, tt.line)
			if start != tt.wantStart || end != tt.wantEnd {
				t.Errorf("lineSpan(%d): got %d, %d; want %d, %d", tt.line, start, end, tt.wantStart, tt.wantEnd)
			}
		})
	}
}

// TestAtoiOr checks the line numbers read from data attributes and error messages.
func TestAtoiOr(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{{"12", 12}, {" 7 ", 7}, {"", -1}, {"x", -1}, {"3a", -1}}
	for _, tt := range tests {
		if got := atoiOr(tt.in, -1); got != tt.want {
			t.Errorf("atoiOr(%q): got %d; want %d", tt.in, got, tt.want)
		}
	}
}
