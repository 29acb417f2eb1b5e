package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// formatSimpleDate formats t with a pattern of Java's SimpleDateFormat, as
// Utilities.formatDate does: letters are fields ("yyyy-MM-dd'T'HH:mm:ss'Z'"), text between
// single quotes is literal, ” is a quote, and any other letter is an error.
func formatSimpleDate(t time.Time, pattern string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch {
		case c == '\'':
			j := i + 1
			if j < len(pattern) && pattern[j] == '\'' {
				b.WriteByte('\'')
				i += 2
				continue
			}
			for j < len(pattern) {
				if pattern[j] == '\'' {
					if j+1 < len(pattern) && pattern[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(pattern[j])
				j++
			}
			if j >= len(pattern) {
				return "", fmt.Errorf("Unterminated quote")
			}
			i = j + 1
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			n := 1
			for i+n < len(pattern) && pattern[i+n] == c {
				n++
			}
			s, err := dateField(t, c, n)
			if err != nil {
				return "", err
			}
			b.WriteString(s)
			i += n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// dateField is one field of a SimpleDateFormat pattern: letter c repeated n times.
func dateField(t time.Time, c byte, n int) (string, error) {
	num := func(v int) string {
		s := strconv.Itoa(v)
		if len(s) < n {
			s = strings.Repeat("0", n-len(s)) + s
		}
		return s
	}
	text := func(short, long string) string {
		if n >= 4 {
			return long
		}
		return short
	}
	_, offset := t.Zone()
	switch c {
	case 'G':
		return "AD", nil
	case 'y', 'Y':
		y := t.Year()
		if c == 'Y' {
			y, _ = t.ISOWeek()
		}
		if n == 2 {
			return fmt.Sprintf("%02d", y%100), nil
		}
		return num(y), nil
	case 'M', 'L':
		if n >= 3 {
			return text(t.Month().String()[:3], t.Month().String()), nil
		}
		return num(int(t.Month())), nil
	case 'w':
		_, w := t.ISOWeek()
		return num(w), nil
	case 'W':
		return num((t.Day()+int(t.AddDate(0, 0, 1-t.Day()).Weekday())-1)/7 + 1), nil
	case 'D':
		return num(t.YearDay()), nil
	case 'd':
		return num(t.Day()), nil
	case 'F':
		return num((t.Day()-1)/7 + 1), nil
	case 'E':
		return text(t.Weekday().String()[:3], t.Weekday().String()), nil
	case 'u':
		return num((int(t.Weekday())+6)%7 + 1), nil
	case 'a':
		if t.Hour() < 12 {
			return "AM", nil
		}
		return "PM", nil
	case 'H':
		return num(t.Hour()), nil
	case 'k':
		if t.Hour() == 0 {
			return num(24), nil
		}
		return num(t.Hour()), nil
	case 'K':
		return num(t.Hour() % 12), nil
	case 'h':
		if h := t.Hour() % 12; h != 0 {
			return num(h), nil
		}
		return num(12), nil
	case 'm':
		return num(t.Minute()), nil
	case 's':
		return num(t.Second()), nil
	case 'S':
		return num(t.Nanosecond() / int(time.Millisecond)), nil
	case 'z':
		name, _ := t.Zone()
		if name == "" || name[0] == '+' || name[0] == '-' {
			return "GMT" + zoneOffset(offset, true), nil
		}
		return name, nil
	case 'Z':
		return zoneOffset(offset, false), nil
	case 'X':
		if offset == 0 {
			return "Z", nil
		}
		s := zoneOffset(offset, n >= 3)
		if n == 1 {
			s = s[:3]
		}
		return s, nil
	}
	return "", fmt.Errorf("Illegal pattern character '%c'", c)
}

// zoneOffset is an offset as +hhmm, or +hh:mm with colon.
func zoneOffset(seconds int, colon bool) string {
	sign := '+'
	if seconds < 0 {
		sign, seconds = '-', -seconds
	}
	sep := ""
	if colon {
		sep = ":"
	}
	return fmt.Sprintf("%c%02d%s%02d", sign, seconds/3600, sep, seconds/60%60)
}
