package ui

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// FirstSentence returns the first sentence of a description's sanitized HTML, as text: from
// its first paragraph (a heading or a list before it left out; the whole text when it has no
// paragraph), up to the end of its first sentence, at most max runes (then cut at a word,
// with "…"). It is what a card shows of an API whose document has no summary.
func FirstSentence(html string, max int) string {
	if i := strings.Index(html, "<p>"); i >= 0 {
		html = html[i+len("<p>"):]
		if j := strings.Index(html, "</p>"); j >= 0 {
			html = html[:j]
		}
	}
	text := PlainText(html)
	text = text[:sentenceEnd(text)]
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	cut := string([]rune(text)[:max])
	if i := strings.LastIndexByte(cut, ' '); i > max/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// sentenceEnd returns the length of text's first sentence: up to a ., ! or ? followed by a
// space and a capital (or the end), unless the word it ends is an abbreviation (e.g., i.e.).
func sentenceEnd(text string) int {
	for i, r := range text {
		if r != '.' && r != '!' && r != '?' {
			continue
		}
		rest := text[i+1:]
		if rest == "" {
			return len(text)
		}
		if rest[0] != ' ' {
			continue // 1.5, example.com, "quoted."
		}
		next, _ := utf8.DecodeRuneInString(strings.TrimLeft(rest, " "))
		word := strings.ToLower(text[strings.LastIndexByte(text[:i], ' ')+1 : i])
		if r == '.' && (word == "e.g" || word == "i.e" || word == "vs" || word == "cf") {
			continue
		}
		if unicode.IsUpper(next) || unicode.IsDigit(next) || !unicode.IsLetter(next) {
			return i + 1
		}
	}
	return len(text)
}
