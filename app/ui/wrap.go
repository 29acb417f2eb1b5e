package ui

import (
	htmlpkg "html"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A browser wraps a line only at spaces and hyphens: a URL, a path or a long identifier is one
// word to it, so in a narrow column it either overflows or (with overflow-wrap: anywhere) breaks
// at whatever letter meets the edge, "page_size_qu/ery_param". BreakableElem gives such a token
// line-break opportunities (<wbr>) after the characters that separate its parts, so it wraps
// between "cursor/" and "items/", never inside a word; the copied text is unchanged.

// breakRun is the length from which a run of text without spaces gets break opportunities:
// shorter runs fit any column, and each <wbr> is a node in the page.
const breakRun = 24

// breakAfter lists the characters a long token may wrap after: those that separate the parts
// of a URL, a path, a list or a dotted name.
const breakAfter = "/?&=,;:|#."

// BreakPoints splits s into the pieces BreakableElem separates with a line-break opportunity:
// within each run of more than breakRun characters without a space, after each character of
// breakAfter that is followed by something other than another of them ("://" stays whole), and
// before a backslash that starts an escape (a JSON string's "\u003c"). The pieces joined give
// s back.
func BreakPoints(s string) []string {
	var out []string
	start := 0
	for lo := 0; lo < len(s); {
		if isSpace(s[lo]) {
			lo++
			continue
		}
		hi := lo
		for hi < len(s) && !isSpace(s[hi]) {
			hi++
		}
		if hi-lo > breakRun {
			for i := lo; i+1 < hi; i++ {
				after := strings.IndexByte(breakAfter, s[i]) >= 0 && strings.IndexByte(breakAfter, s[i+1]) < 0
				before := s[i+1] == '\\' && s[i] != '\\'
				if after || before {
					out = append(out, s[start:i+1])
					start = i + 1
				}
			}
		}
		lo = hi
	}
	return append(out, s[start:])
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' }

// breakMax is the longest text BreakableElem splits: a longer one (a raw body of megabytes)
// stays one piece, which the stylesheet's overflow-wrap lets break anywhere.
const breakMax = 64 << 10

// Attr is an attribute of an element BreakableElem writes: a name and a value.
type Attr struct{ Name, Value string }

// BreakableElem renders the element <tag attrs…>text</tag> with a line-break opportunity
// (<wbr>) between the pieces BreakPoints finds. It is written as markup (app.Raw): the pieces
// stay one run of text with nothing between them, where children rendered by go-app would be
// separated by the prerendered page's indentation (spaces inside a URL, or lines in a <pre>).
func BreakableElem(tag string, attrs []Attr, text string) app.UI {
	var b strings.Builder
	b.WriteString("<" + tag)
	for _, a := range attrs {
		if a.Value != "" {
			b.WriteString(" " + a.Name + `="` + htmlpkg.EscapeString(a.Value) + `"`)
		}
	}
	b.WriteString(">")
	parts := []string{text}
	if len(text) <= breakMax {
		parts = BreakPoints(text)
	}
	for i, p := range parts {
		if i > 0 {
			b.WriteString("<wbr>")
		}
		b.WriteString(htmlpkg.EscapeString(p))
	}
	b.WriteString("</" + tag + ">")
	return app.Raw(b.String())
}
