package chat

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// maxPatternRepeats bounds how far an unbounded repetition (*, +, {n,}) is
// stretched to reach a minLength.
const maxPatternRepeats = 64

// patternString returns a string that matches pattern (a JSON Schema
// pattern: a regular expression that must match somewhere in the value) and
// has between minLen and maxLen runes (maxLen < 0: no maximum). It prefers a
// candidate taken from the prompt that already fits, then builds the
// shortest match, stretching unbounded repetitions for minLen. ok is false
// when the pattern is not a Go regular expression (ECMA-262 lookarounds and
// backreferences are not) or no fitting string was found.
//
// variant picks other members of the character classes, so that the items of
// a uniqueItems array differ.
func patternString(pattern string, candidates []string, minLen, maxLen, variant int) (string, bool) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", false
	}
	fits := func(s string) bool {
		n := utf8.RuneCountInString(s)
		return re.MatchString(s) && n >= minLen && (maxLen < 0 || n <= maxLen)
	}
	for _, c := range candidates {
		if c != "" && fits(c) {
			return c, true
		}
	}
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	tree = tree.Simplify()
	for extra := 0; extra <= maxPatternRepeats; extra++ {
		var b strings.Builder
		writeMatch(&b, tree, extra, variant)
		if s := b.String(); fits(s) {
			return s, true
		}
	}
	return "", false
}

// writeMatch writes a string matched by re: literals as they are, a
// readable member of each class, the first alternative, and each
// repetition at its minimum plus extra when it is unbounded.
func writeMatch(b *strings.Builder, re *syntax.Regexp, extra, variant int) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		b.WriteRune(classRune(re.Rune, variant))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('x')
	case syntax.OpCapture:
		writeMatch(b, re.Sub[0], extra, variant)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			writeMatch(b, s, extra, variant)
		}
	case syntax.OpAlternate:
		writeMatch(b, re.Sub[variant%len(re.Sub)], extra, variant)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := repeatBounds(re)
		n := lo
		if hi < 0 {
			n += extra
		} else {
			n = min(lo+extra, hi)
		}
		for range n {
			writeMatch(b, re.Sub[0], extra, variant)
		}
	}
	// Anchors, word boundaries and empty matches write nothing; the result is
	// checked against the whole expression afterwards.
}

// repeatBounds is a repetition's minimum and maximum (-1: unbounded).
func repeatBounds(re *syntax.Regexp) (int, int) {
	switch re.Op {
	case syntax.OpStar:
		return 0, -1
	case syntax.OpPlus:
		return 1, -1
	case syntax.OpQuest:
		return 0, 1
	}
	return re.Min, re.Max
}

// classRune picks a member of a character class (pairs of inclusive
// ranges): a readable one (a letter, a digit, "-", "_", " ") if it has one,
// the variant-th of those, else a printable character, then the first
// member.
func classRune(ranges []rune, variant int) rune {
	var readable []rune
	for _, want := range []rune("aesotnirlc0123456789ASETBCD-_ ") {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= want && want <= ranges[i+1] {
				readable = append(readable, want)
				break
			}
		}
	}
	if len(readable) > 0 {
		return readable[variant%len(readable)]
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := max(ranges[i], 0x21); r <= ranges[i+1] && r < 0x7f; r++ {
			return r
		}
	}
	if len(ranges) > 0 {
		return ranges[0]
	}
	return 'x'
}

// patternCandidates are the prompt's strings worth trying against a pattern:
// quoted phrases, names, every token (with and without trailing
// punctuation), the numbers, then the whole text.
func (f promptFacts) patternCandidates() []string {
	out := append([]string{}, f.quoted...)
	out = append(out, f.names...)
	for _, tok := range strings.Fields(f.text) {
		out = append(out, tok, strings.TrimRight(tok, ".,;:!?)\"'"), strings.Trim(tok, ".,;:!?()\"'"))
	}
	for _, n := range numberRe.FindAllString(f.text, -1) {
		out = append(out, n)
	}
	return append(out, f.text)
}

// Formats a prompt may hold a value of.
var (
	promptDate  = regexp.MustCompile(`^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$`)
	promptEmail = regexp.MustCompile(`^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$`)
)

// matching returns the first prompt candidate re matches, or def.
func (f promptFacts) matching(re *regexp.Regexp, def string) string {
	for _, c := range f.patternCandidates() {
		if re.MatchString(c) {
			return c
		}
	}
	return def
}
