package docs

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// maxInt is where parsed integers saturate: far above any page, limit or
// offset that means something, yet small enough that offset+limit cannot
// overflow.
const maxInt = 1 << 52

// errNotInt is the ValueError of Python's int() on a string.
var errNotInt = errors.New("not an integer")

// pyInt parses s like Python's int(s): surrounding whitespace, an optional
// sign, ASCII decimal digits with single underscores between them. Values beyond
// ±maxInt saturate (Python's integers are unbounded).
func pyInt(s string) (int, error) {
	t := strings.TrimFunc(s, unicode.IsSpace)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if t == "" || t[0] == '_' || t[len(t)-1] == '_' || strings.Contains(t, "__") {
		return 0, fmt.Errorf("int(%q): %w", s, errNotInt)
	}
	n := 0
	for _, c := range t {
		switch {
		case c == '_':
			continue
		case c >= '0' && c <= '9':
			if n < maxInt {
				n = n*10 + int(c-'0')
			}
		default:
			return 0, fmt.Errorf("int(%q): %w", s, errNotInt)
		}
	}
	n = min(n, maxInt)
	if neg {
		n = -n
	}
	return n, nil
}

// positiveInt is DRF's _positive_int: pyInt, refusing negatives (and 0 when
// strict), clipped to cutoff when cutoff > 0.
func positiveInt(s string, strict bool, cutoff int) (int, error) {
	n, err := pyInt(s)
	if err != nil {
		return 0, err
	}
	if n < 0 || (n == 0 && strict) {
		return 0, fmt.Errorf("%q is not a positive integer: %w", s, errNotInt)
	}
	if cutoff > 0 {
		return min(n, cutoff), nil
	}
	return n, nil
}
