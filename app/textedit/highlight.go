package textedit

import "strings"

// Kind is what a piece of code is, for its colour.
type Kind uint8

// The kinds of tokens Highlight tells apart.
const (
	Plain   Kind = iota // names, operators, punctuation, spaces
	Keyword             // a reserved word of JavaScript
	Literal             // true, false, null, undefined, this, NaN, Infinity
	String              // a quoted string or template literal (in HTML: an attribute value)
	Number              // a numeric literal
	Comment             // a line or block comment
	Regexp              // a regular expression literal
	Tag                 // HTML: a tag's name with its brackets
	Attr                // HTML: an attribute's name
)

// Token is a piece of the source and its kind. The tokens of a text joined give it back.
type Token struct {
	Kind Kind
	Text string
}

// jsKeywords are JavaScript's reserved words (and the contextual ones a script writes as such).
var jsKeywords = map[string]Kind{}

func init() {
	for _, w := range strings.Fields(`break case catch class const continue debugger default delete do else export
		extends finally for function if import in instanceof let new of return static super switch throw try
		typeof var void while with yield async await get set`) {
		jsKeywords[w] = Keyword
	}
	for _, w := range strings.Fields(`true false null undefined this NaN Infinity`) {
		jsKeywords[w] = Literal
	}
}

// HighlightJS splits JavaScript source into tokens for display: comments, strings (template
// literals whole, their ${…} parts included), numbers, regular expression literals (told from
// a division by what comes before), keywords and the rest. It never fails: text it cannot
// classify is Plain, and an unclosed string or comment runs to the end of its line or the
// text, as an editor shows it while it is being typed.
func HighlightJS(src string) []Token {
	var out []Token
	emit := func(k Kind, text string) {
		if text == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Kind == k {
			out[n-1].Text += text
			return
		}
		out = append(out, Token{k, text})
	}
	regexOK := true // a "/" here starts a regular expression, not a division
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := indexFrom(src, i, "\n", len(src))
			emit(Comment, src[i:j])
			i = j
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := len(src)
			if k := strings.Index(src[i+2:], "*/"); k >= 0 {
				j = i + 2 + k + 2
			}
			emit(Comment, src[i:j])
			i = j
		case c == '"' || c == '\'':
			j := quoted(src, i, c, true)
			emit(String, src[i:j])
			i, regexOK = j, false
		case c == '`':
			j := quoted(src, i, '`', false)
			emit(String, src[i:j])
			i, regexOK = j, false
		case c == '/' && regexOK:
			j := regexEnd(src, i)
			emit(Regexp, src[i:j])
			i, regexOK = j, false
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := i + 1
			for j < len(src) && (isIdent(src[j]) || src[j] == '.' || (src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E')) {
				j++
			}
			emit(Number, src[i:j])
			i, regexOK = j, false
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdent(src[j]) {
				j++
			}
			word := src[i:j]
			kind, known := jsKeywords[word]
			if !known || (i > 0 && src[i-1] == '.') { // obj.default, obj.get: a property, not a keyword
				kind = Plain
			}
			emit(kind, word)
			i = j
			// After a name or a literal a "/" divides; after a keyword (return, typeof) it starts a regexp.
			regexOK = kind == Keyword
		default:
			emit(Plain, src[i:i+1])
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				regexOK = c != ')' && c != ']' && c != '}'
			}
			i++
		}
	}
	return out
}

// indexFrom returns the index of sub in s at or after from, or def when there is none.
func indexFrom(s string, from int, sub string, def int) int {
	if j := strings.Index(s[from:], sub); j >= 0 {
		return from + j
	}
	return def
}

// quoted returns the end of the string starting at s[i] with quote q: after its closing quote,
// or at the end of the line (oneLine) or of the text when it is not closed. A template
// literal's ${…} may hold nested braces and strings.
func quoted(s string, i int, q byte, oneLine bool) int {
	depth := 0
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\':
			j++
		case c == '\n' && oneLine:
			return j
		case q == '`' && c == '$' && j+1 < len(s) && s[j+1] == '{':
			depth++
			j++
		case q == '`' && depth > 0 && c == '}':
			depth--
		case c == q && depth == 0:
			return j + 1
		}
	}
	return len(s)
}

// regexEnd returns the end of the regular expression literal starting at s[i]: after its
// closing slash and flags, or at the end of the line when it is not closed.
func regexEnd(s string, i int) int {
	inClass := false
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '\n':
			return j
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				j++
				for j < len(s) && isIdent(s[j]) {
					j++
				}
				return j
			}
		}
	}
	return len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}
func isIdent(c byte) bool { return isIdentStart(c) || isDigit(c) }

// HighlightHTML splits an HTML file into tokens for display: comments, tags, attribute names
// and values, and the code of its <script> elements as HighlightJS splits it.
func HighlightHTML(src string) []Token {
	var out []Token
	emit := func(k Kind, text string) {
		if text != "" {
			out = append(out, Token{k, text})
		}
	}
	for i := 0; i < len(src); {
		switch {
		case strings.HasPrefix(src[i:], "<!--"):
			j := len(src)
			if k := strings.Index(src[i+4:], "-->"); k >= 0 {
				j = i + 4 + k + 3
			}
			emit(Comment, src[i:j])
			i = j
		case src[i] == '<' && i+1 < len(src) && (isIdentStart(src[i+1]) || src[i+1] == '/' || src[i+1] == '!'):
			j := i + 1
			for j < len(src) && !isSpace(src[j]) && src[j] != '>' && (src[j] != '/' || j == i+1) {
				j++
			}
			opensScript := strings.EqualFold(src[i+1:j], "script")
			emit(Tag, src[i:j])
			i = tagRest(src, j, emit)
			if opensScript && !strings.HasSuffix(src[:i], "/>") {
				end := len(src)
				if k := strings.Index(strings.ToLower(src[i:]), "</script"); k >= 0 {
					end = i + k
				}
				out = append(out, HighlightJS(src[i:end])...)
				i = end
			}
		default:
			j := i + 1
			for j < len(src) && src[j] != '<' {
				j++
			}
			emit(Plain, src[i:j])
			i = j
		}
	}
	return out
}

// tagRest emits the attributes of a tag from s[i] to its closing ">" and returns what follows.
func tagRest(s string, i int, emit func(Kind, string)) int {
	for i < len(s) {
		switch c := s[i]; {
		case c == '>':
			emit(Tag, ">")
			return i + 1
		case c == '/' && i+1 < len(s) && s[i+1] == '>':
			emit(Tag, "/>")
			return i + 2
		case c == '"' || c == '\'':
			j := quoted(s, i, c, false)
			emit(String, s[i:j])
			i = j
		case isSpace(c) || c == '=':
			emit(Plain, s[i:i+1])
			i++
		default:
			j := i
			for j < len(s) && !isSpace(s[j]) && s[j] != '=' && s[j] != '>' && s[j] != '/' {
				j++
			}
			if j == i {
				j++
			}
			emit(Attr, s[i:j])
			i = j
		}
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
