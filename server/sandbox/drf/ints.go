package drf

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// MaxInt is where parsed integers saturate: far above any page, limit or
// offset that means something, yet small enough that offset+limit cannot
// overflow.
const MaxInt = 1 << 52

// ErrNotInt is the ValueError of Python's int() on a string.
var ErrNotInt = errors.New("not an integer")

// PyInt parses s like Python's int(s): surrounding whitespace, an optional
// sign, ASCII decimal digits with single underscores between them. Values beyond
// ±MaxInt saturate (Python's integers are unbounded).
func PyInt(s string) (int, error) {
	t := strings.TrimFunc(s, unicode.IsSpace)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if t == "" || t[0] == '_' || t[len(t)-1] == '_' || strings.Contains(t, "__") {
		return 0, fmt.Errorf("int(%q): %w", s, ErrNotInt)
	}
	n := 0
	for _, c := range t {
		switch {
		case c == '_':
			continue
		case c >= '0' && c <= '9':
			if n < MaxInt {
				n = n*10 + int(c-'0')
			}
		default:
			return 0, fmt.Errorf("int(%q): %w", s, ErrNotInt)
		}
	}
	n = min(n, MaxInt)
	if neg {
		n = -n
	}
	return n, nil
}

// PositiveInt is DRF's _positive_int: PyInt, refusing negatives (and 0 when
// strict), clipped to cutoff when cutoff > 0.
func PositiveInt(s string, strict bool, cutoff int) (int, error) {
	n, err := PyInt(s)
	if err != nil {
		return 0, err
	}
	if n < 0 || (n == 0 && strict) {
		return 0, fmt.Errorf("%q is not a positive integer: %w", s, ErrNotInt)
	}
	if cutoff > 0 {
		return min(n, cutoff), nil
	}
	return n, nil
}
