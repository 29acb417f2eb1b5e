package docs

import (
	"fmt"
	"strings"
)

// section is one section of a documentation page as Sphinx writes it: a
// <div class="section"> whose id is the anchor, a heading with a permalink,
// blocks of HTML, then the subsections. A page is its top section; the pages
// are rendered from Markdown sources (see markdown.go) and are the same in
// every built version of a project.
type section struct {
	id       string
	title    string   // plain text
	blocks   []string // HTML, written as is (never escaped or sanitized)
	children []*section
}

// HostileProject and HostileDoc name the page whose HTML is hostile on
// purpose, as a real hosted page could be: GET
// /api/v2/embed/?project=kitchen-sink&doc=untrusted (any built version; add
// section=scripts, event-handlers, links, frames-and-forms or styles for one
// part). The sandbox returns it as is; neutralising it is the viewer's job.
const (
	HostileProject = "kitchen-sink"
	HostileDoc     = "untrusted"
)

// html renders s as Sphinx's HTML, with its heading at level (1 for <h1>).
func (s *section) html(level int) string {
	var b strings.Builder
	h := min(level, 6)
	fmt.Fprintf(&b, "<div class=\"section\" id=\"%s\">\n", s.id)
	fmt.Fprintf(&b, "<h%d>%s<a class=\"headerlink\" href=\"#%s\" title=\"Permalink to this headline\">¶</a></h%d>\n",
		h, s.title, s.id, h)
	for _, block := range s.blocks {
		b.WriteString(block)
		b.WriteString("\n")
	}
	for _, c := range s.children {
		b.WriteString(c.html(level + 1))
		b.WriteString("\n")
	}
	b.WriteString("</div>")
	return b.String()
}

// find returns the section named by anchor and its heading level, trying like
// the real embed endpoint: the exact id, then the anchor as Sphinx would
// slugify it, then a heading with that text (case-insensitive).
func (s *section) find(anchor string) (*section, int, bool) {
	for _, match := range []func(*section) bool{
		func(c *section) bool { return c.id == anchor },
		func(c *section) bool { return c.id == slugify(anchor) },
		func(c *section) bool { return strings.EqualFold(c.title, strings.TrimSpace(anchor)) },
	} {
		if found, level, ok := s.walk(1, match); ok {
			return found, level, true
		}
	}
	return nil, 0, false
}

// walk returns the first section in document order that matches.
func (s *section) walk(level int, match func(*section) bool) (*section, int, bool) {
	if match(s) {
		return s, level, true
	}
	for _, c := range s.children {
		if found, l, ok := c.walk(level+1, match); ok {
			return found, l, true
		}
	}
	return nil, 0, false
}

// headers lists the headings of s and its subsections in document order,
// each an object mapping the heading text to its anchor: "#" for the page's
// top heading (top), "#<id>" otherwise.
func (s *section) headers(top *section) []map[string]string {
	anchor := "#" + s.id
	if s == top {
		anchor = "#"
	}
	out := []map[string]string{{s.title: anchor}}
	for _, c := range s.children {
		out = append(out, c.headers(top)...)
	}
	return out
}

// slugify makes an anchor like docutils' make_id: lower case, runs of other
// characters than letters and digits become one "-", trimmed.
func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}
