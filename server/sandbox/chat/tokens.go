package chat

import (
	"unicode"
	"unicode/utf8"
)

// The sandbox's tokenizer is deterministic and needs no vocabulary. A token is
// one of:
//
//   - a run of at most maxWordRunes letters, digits or underscores, optionally
//     preceded by one space (" function" is one token, "internationalization"
//     is three);
//   - any other single character, optionally preceded by one space (" (" is
//     one token);
//   - a run of whitespace that is not a single space before a non-space
//     character ("\n    " is one token).
//
// The tokens of a text concatenate back to the text, so streamed deltas add up
// to the answer. On English prose and code it counts about one token per four
// to five characters, close to real BPE tokenizers, and it is used both to
// stream the answer and to estimate the size of a conversation.
const maxWordRunes = 8

// isWordRune reports whether r belongs to a word run.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isSpace reports whether r is whitespace for the tokenizer.
func isSpace(r rune) bool {
	return r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '\f' || r == '\v'
}

// tokenLen returns the length in bytes of the first token of s, which must not
// be empty.
func tokenLen(s string) int {
	i := 0
	r, size := utf8.DecodeRuneInString(s)
	if isSpace(r) {
		// A single space before a non-space character starts that token.
		if r == ' ' && len(s) > 1 {
			next, nextSize := utf8.DecodeRuneInString(s[1:])
			if !isSpace(next) {
				i, r, size = 1, next, nextSize
			}
		}
		if i == 0 {
			for i < len(s) {
				r, size = utf8.DecodeRuneInString(s[i:])
				if !isSpace(r) {
					break
				}
				i += size
			}
			return i
		}
	}
	if !isWordRune(r) {
		return i + size
	}
	for n := 0; i < len(s) && n < maxWordRunes; n++ {
		r, size = utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			break
		}
		i += size
	}
	return i
}

// tokenize splits s into tokens; strings.Join(tokenize(s), "") == s. The stream walks the
// tokens with eachToken instead, without holding them all.
func tokenize(s string) []string {
	out := make([]string, 0, countTokens(s))
	_ = eachToken(s, func(tok string) error { out = append(out, tok); return nil })
	return out
}

// firstTokens returns the text of s's first n tokens (all of s if it has no more) and how many
// tokens that is, without allocating.
func firstTokens(s string, n int) (string, int) {
	i, k := 0, 0
	for ; i < len(s) && k < n; k++ {
		i += tokenLen(s[i:])
	}
	return s[:i], k
}

// eachToken calls f with each token of s in order, until f returns an error, which it returns.
func eachToken(s string, f func(tok string) error) error {
	for len(s) > 0 {
		n := tokenLen(s)
		if err := f(s[:n]); err != nil {
			return err
		}
		s = s[n:]
	}
	return nil
}

// countTokens returns len(tokenize(s)) without allocating.
func countTokens(s string) int {
	n := 0
	for len(s) > 0 {
		s = s[tokenLen(s):]
		n++
	}
	return n
}
