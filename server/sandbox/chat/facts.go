package chat

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// promptFacts is what argument generation takes from the last user message.
type promptFacts struct {
	text    string    // the message, trimmed
	quoted  []string  // "quoted phrases"
	names   []string  // Capitalised words that do not start a sentence
	words   []string  // content words (see contentWords)
	numbers []float64 // numbers in order
}

var (
	quotedRe = regexp.MustCompile(`["“']([^"”']{2,80})["”']`)
	numberRe = regexp.MustCompile(`-?\d+(?:\.\d+)?`)
	nameRe   = regexp.MustCompile(`\p{Lu}\p{Ll}+(?:\s\p{Lu}\p{Ll}+)*`)
)

// factsOf extracts promptFacts from text.
func factsOf(text string) promptFacts {
	f := promptFacts{text: strings.TrimSpace(text), words: contentWords(text)}
	for _, m := range quotedRe.FindAllStringSubmatch(text, -1) {
		f.quoted = append(f.quoted, m[1])
	}
	// Capitalised words that start a sentence are names only when no other
	// word is: in "Forecast for Rome", Rome is the name.
	var initial []string
	for _, loc := range nameRe.FindAllStringIndex(text, -1) {
		name := text[loc[0]:loc[1]]
		if isStopword(strings.ToLower(name)) {
			continue
		}
		before := strings.TrimRight(text[:loc[0]], " \t\n\"'“(")
		if before == "" || strings.ContainsAny(before[len(before)-1:], ".!?:") {
			first, rest, more := strings.Cut(name, " ")
			initial = append(initial, first)
			if !more {
				continue
			}
			name = rest // "Register Ada": Ada is a name
		}
		f.names = append(f.names, name)
	}
	f.names = append(f.names, initial...)
	for _, m := range numberRe.FindAllString(text, -1) {
		if v, err := strconv.ParseFloat(m, 64); err == nil {
			f.numbers = append(f.numbers, v)
		}
	}
	return f
}

// phrase returns a string for a property called name.
func (f promptFacts) phrase(name string) string {
	lower := strings.ToLower(name)
	has := func(parts ...string) bool {
		for _, p := range parts {
			if strings.Contains(lower, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("email"):
		return "user@example.com"
	case has("url", "link", "website"):
		return "https://example.com/"
	case has("date"):
		return "2026-01-15"
	case has("city", "location", "place", "country", "region", "address", "town", "destination"):
		if len(f.names) > 0 {
			return f.names[0]
		}
	case lower == "q" || has("query", "search", "prompt", "text", "topic", "keyword", "message", "content", "question", "input", "term"):
		if len(f.quoted) > 0 {
			return f.quoted[0]
		}
		if f.text != "" {
			return truncateRunes(f.text, 200)
		}
	}
	if len(f.quoted) > 0 {
		return f.quoted[0]
	}
	if len(f.names) > 0 && has("name", "title", "who", "person", "city") {
		return f.names[0]
	}
	if len(f.words) > 0 {
		return strings.Join(f.words[:min(3, len(f.words))], " ")
	}
	return "example"
}

// truncateRunes cuts s to at most n runes.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// singular guesses the singular of an English plural property name.
func singular(name string) string {
	switch {
	case strings.HasSuffix(name, "ies"):
		return strings.TrimSuffix(name, "ies") + "y"
	case strings.HasSuffix(name, "s") && !strings.HasSuffix(name, "ss"):
		return strings.TrimSuffix(name, "s")
	}
	return name
}
