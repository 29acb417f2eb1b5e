package server

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// matching returns a string that the pattern matches, written from its syntax tree (the first
// character of each class, each repeat at its least, at least once), or "" when the one made
// does not match (lookarounds and the like).
func matching(pattern string) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return ""
	}
	var b strings.Builder
	var walk func(r *syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpLiteral:
			b.WriteString(string(r.Rune))
		case syntax.OpCharClass:
			if len(r.Rune) > 0 {
				c := r.Rune[0]
				for i := 0; i+1 < len(r.Rune); i += 2 { // prefer a letter or digit
					if lo, hi := r.Rune[i], r.Rune[i+1]; lo <= 'a' && 'a' <= hi {
						c = 'a'
						break
					} else if lo <= '1' && '1' <= hi {
						c = '1'
					}
				}
				b.WriteRune(c)
			}
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('a')
		case syntax.OpCapture:
			for _, s := range r.Sub {
				walk(s)
			}
		case syntax.OpConcat:
			for _, s := range r.Sub {
				walk(s)
			}
		case syntax.OpAlternate:
			walk(r.Sub[0])
		case syntax.OpStar, syntax.OpQuest:
		case syntax.OpPlus:
			walk(r.Sub[0])
		case syntax.OpRepeat:
			n := max(r.Min, 1)
			if r.Max >= 0 && r.Max < n {
				n = r.Max
			}
			for range n {
				walk(r.Sub[0])
			}
		}
	}
	walk(re.Simplify())
	s := b.String()
	if m, err := regexp.MatchString(pattern, s); err != nil || !m {
		return ""
	}
	return s
}
