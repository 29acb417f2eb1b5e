package markdown

import (
	"regexp"
	"strings"
)

// fence is a fenced code block the scanner is inside of.
type fence struct {
	open bool
	char byte // '`' or '~'
	n    int  // length of the opening run
	// seg is true when the fence opened at column 0 and so is a top-level block of its own.
	seg bool
	// container is the content indentation of the list item holding the fence; 0 at top level.
	container int
	// lang is the first word of the info string; codeStart is the offset of the code.
	lang      string
	codeStart int
}

// indentOf returns the width of a line's leading spaces; a tab counts as 4.
func indentOf(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n
		}
	}
	return n
}

// isBlank reports whether a line holds only white space.
func isBlank(line string) bool { return strings.TrimLeft(line, " \t\r\f\v") == "" }

// openingFence parses a code fence opening line: up to 3 spaces, then 3 or more backticks or
// tildes, then an info string (with no backtick after a backtick fence).
func openingFence(line string) (f fence, ok bool) {
	ind := indentOf(line)
	if ind > 3 {
		return f, false
	}
	rest := strings.TrimLeft(line, " ")
	if rest == "" || (rest[0] != '`' && rest[0] != '~') {
		return f, false
	}
	c := rest[0]
	n := 0
	for n < len(rest) && rest[n] == c {
		n++
	}
	if n < 3 {
		return f, false
	}
	info := strings.TrimSpace(rest[n:])
	if c == '`' && strings.IndexByte(info, '`') >= 0 {
		return f, false
	}
	lang, _, _ := strings.Cut(info, " ")
	return fence{open: true, char: c, n: n, lang: lang}, true
}

// closes reports whether a line is the closing fence of f: up to 3 spaces, a run of the same
// character at least as long as the opening one, then only white space.
func (f fence) closes(line string) bool {
	if indentOf(line) > 3 {
		return false
	}
	rest := strings.TrimLeft(line, " ")
	n := 0
	for n < len(rest) && rest[n] == f.char {
		n++
	}
	return n >= f.n && isBlank(rest[n:])
}

// isATXHeading reports whether a line at column 0 is an ATX heading (# to ######).
func isATXHeading(line string) bool {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(line) || line[n] == ' ' || line[n] == '\t' || line[n] == '\r')
}

// listMarker matches the start of a list item (after its indentation).
var listMarker = regexp.MustCompile(`^(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|\r?$)`)

// isListItem reports whether a line (indentation removed) starts a list item.
func isListItem(rest string) bool { return listMarker.MatchString(rest) }

// contentOffset returns how far right of a list marker line's start (indentation removed) the
// item's content begins: the marker, then 1 to 4 spaces (1 when there are more, or none).
func contentOffset(rest string) int {
	m := strings.IndexAny(rest, " \t\r")
	if m < 0 {
		return len(rest) + 1
	}
	n := 0
	for m+n < len(rest) && rest[m+n] == ' ' {
		n++
	}
	if n == 0 || n > 4 || m+n == len(rest) {
		n = 1
	}
	return m + n
}

// refDef matches a link reference definition line, which applies to the whole document.
var refDef = regexp.MustCompile(`^ {0,3}\[(?:[^\]\\]|\\.)+\]:`)

// htmlBlockEnd returns the end marker of an HTML block of kinds 1 to 5 (those that may hold
// blank lines) that the line (indentation removed) starts, or "" when it starts none.
func htmlBlockEnd(rest string) string {
	if len(rest) < 2 || rest[0] != '<' {
		return ""
	}
	lower := strings.ToLower(rest[:min(len(rest), 10)])
	for _, tag := range []string{"script", "pre", "style", "textarea"} {
		if after, ok := strings.CutPrefix(lower, "<"+tag); ok {
			if after == "" || after[0] == ' ' || after[0] == '\t' || after[0] == '>' || after[0] == '\r' {
				return "</" + tag + ">"
			}
		}
	}
	switch {
	case strings.HasPrefix(rest, "<!--"):
		return "-->"
	case strings.HasPrefix(rest, "<?"):
		return "?>"
	case strings.HasPrefix(rest, "<![CDATA["):
		return "]]>"
	case rest[1] == '!' && len(rest) > 2 && (rest[2]|0x20) >= 'a' && (rest[2]|0x20) <= 'z':
		return ">"
	}
	return ""
}

// endAtBlank is the end marker of HTML blocks of kinds 6 and 7, which end at a blank line.
const endAtBlank = "\n"

// htmlBlockOpens returns the end marker an HTML block starting on this line still waits for,
// or "" when the line starts no such block or already ends it.
func htmlBlockOpens(rest string) string {
	end := htmlBlockEnd(rest)
	if end == "" {
		// Kinds 6 and 7 start with a tag; counting every tag line as one is conservative.
		if len(rest) > 1 && rest[0] == '<' && (rest[1] == '/' || (rest[1]|0x20) >= 'a' && (rest[1]|0x20) <= 'z') {
			return endAtBlank
		}
		return ""
	}
	// The end marker may be on the start line itself, after the opening.
	from := 2
	if end == ">" {
		from = 3
	}
	if strings.Contains(strings.ToLower(rest[min(from, len(rest)):]), end) {
		return ""
	}
	return end
}
