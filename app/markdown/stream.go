package markdown

import (
	"html"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gmtext "github.com/yuin/goldmark/text"
)

// Block is one rendered piece of a Markdown answer: one or more top-level blocks.
type Block struct {
	// Code is true when the block is exactly one fenced code block; Lang is its language (the
	// first word of the info string) and Text its code, for copy buttons and previews.
	Code bool
	Lang string
	Text string
	// Open is true for the tail: the block that may still grow.
	Open bool

	html string
	// escaped and partial hold an open code block's escaped lines and its partial last line,
	// so its HTML is only built when asked for.
	escaped, partial string
}

// HTML returns the sanitized HTML of the block; "" for an empty tail. An open code block's
// HTML is built on each call: a view may rather show its Text.
func (b Block) HTML() string {
	if b.Code && b.Open {
		return codeHTML(b.Lang, b.escaped, b.partial)
	}
	return b.html
}

// Stream renders a Markdown text that grows at its end, as a chat answer does while it
// streams. The text is split into completed top-level blocks, each rendered once and cached,
// and the open tail, re-rendered when the text changed. An unterminated code fence is one open
// block. Once the text ends (Close), the concatenated HTML of the blocks equals
// Renderer.Render of the whole text. A Stream is not safe for concurrent use.
type Stream struct {
	r    *Renderer
	text strings.Builder

	done    []Block
	doneSrc []string // the Markdown of each completed block, for re-rendering

	segStart  int  // offset of the open segment (the tail)
	scanPos   int  // offset of the first line not scanned yet
	prevBlank bool // the last scanned line was blank
	segList   bool // the open segment holds a list item
	// itemIndent is the content indentation of the last top-level list item.
	itemIndent int
	fence      fence
	htmlEnd    string // end marker of the HTML block the scanner is inside of
	defs       string // link reference definition lines seen so far
	defLabels  []string
	closed     bool
	// checked is the last offset closedAt answered for, and checkedOK its answer.
	checked   int
	checkedOK bool
	// checkedList is true when the segment checked ends with a list.
	checkedList bool

	codeEsc   strings.Builder // the escaped complete lines of an open top-level fence
	tail      Block
	tailValid bool
}

// NewStream returns an empty Stream rendering with r.
func NewStream(r *Renderer) *Stream { return &Stream{r: r} }

// Write appends text (any number of bytes, for example one token) to the answer.
func (s *Stream) Write(text string) {
	if text == "" {
		return
	}
	s.text.WriteString(text)
	s.tailValid = false
	s.scan()
}

// Close says the text is complete: the tail is then a block like the others (not Open).
func (s *Stream) Close() {
	if !s.closed {
		s.closed = true
		s.tailValid = false
	}
}

// Text returns the Markdown written so far.
func (s *Stream) Text() string { return s.text.String() }

// Completed returns the completed blocks. Each keeps its HTML string from call to call; the
// slice is the Stream's own: do not modify it.
func (s *Stream) Completed() []Block { return s.done }

// Tail returns the open tail, rendered again when the text changed; the zero Block when the
// tail is empty.
func (s *Stream) Tail() Block { return s.renderTail() }

// Blocks returns the completed blocks, then the tail when it is not empty, in a new slice.
func (s *Stream) Blocks() []Block {
	tail := s.renderTail()
	out := make([]Block, len(s.done), len(s.done)+1)
	copy(out, s.done)
	if tail != (Block{}) {
		out = append(out, tail)
	}
	return out
}

// HTML returns the HTML of every block, concatenated.
func (s *Stream) HTML() string {
	var b strings.Builder
	for _, bl := range s.Blocks() {
		b.WriteString(bl.HTML())
	}
	return b.String()
}

// scan reads the complete lines written since the last scan and cuts blocks off the tail.
func (s *Stream) scan() {
	text := s.text.String()
	for {
		i := strings.IndexByte(text[s.scanPos:], '\n')
		if i < 0 {
			s.scanPartial(text[s.scanPos:])
			return
		}
		start, end := s.scanPos, s.scanPos+i+1
		s.scanLine(text[start:start+i], start, end)
		s.scanPos = end
	}
}

// scanLine updates the scanner with one line, at [start, end) of the text, newline included.
// A cut is made only where the blocks before and after cannot affect each other's rendering.
func (s *Stream) scanLine(line string, start, end int) {
	if refDef.MatchString(line) {
		s.addDef(line, end)
	}
	if s.fence.open && s.fence.container > 0 && !isBlank(line) && indentOf(line) < s.fence.container {
		// A line left of the list item's content ends the item, and its code block with it.
		s.fence = fence{}
	}
	if s.fence.open {
		switch {
		case s.fence.closes(line):
			if s.fence.seg {
				s.cut(end)
			}
			s.fence = fence{}
		case s.fence.seg:
			s.codeEsc.WriteString(html.EscapeString(line))
			s.codeEsc.WriteByte('\n')
		}
		s.prevBlank = false
		return
	}
	if s.htmlEnd == endAtBlank {
		if isBlank(line) {
			s.htmlEnd = ""
			s.prevBlank = true
		}
		return
	}
	if s.htmlEnd != "" {
		if strings.Contains(strings.ToLower(line), s.htmlEnd) {
			s.htmlEnd = ""
		}
		s.prevBlank = isBlank(line)
		return
	}
	if isBlank(line) {
		s.prevBlank = true
		return
	}
	ind := indentOf(line)
	if ind == 0 {
		// A column-0 line after a blank line starts a new top-level block, unless it is one
		// more item of a list the segment holds (which may make the whole list loose); so do
		// a fence and a heading. The parser confirms it before the cut.
		f, isFence := openingFence(line)
		heading := isATXHeading(line)
		item := isListItem(line)
		if (s.prevBlank && !(s.segList && item)) || isFence || heading {
			switch closed := s.closedAt(start, item); {
			case closed && isFence:
				s.cut(start)
				f.seg, f.codeStart = true, end
				s.fence = f
				s.codeEsc.Reset()
				s.prevBlank = false
				return
			case closed && heading:
				s.cut(start)
				s.cut(end)
				s.prevBlank = false
				return
			case closed:
				s.cut(start)
			case isFence:
				// The parser is inside a block that swallows the line: a code block this
				// fence closes, which the scanner lost track of.
				s.fence = fence{}
				s.prevBlank = false
				return
			}
		}
	}
	if ind <= 3 {
		rest := strings.TrimLeft(line, " \t")
		if f, ok := openingFence(line); ok {
			if s.segList && ind >= s.itemIndent {
				f.container = s.itemIndent
			}
			s.fence = f
		} else if e := htmlBlockOpens(rest); e != "" {
			s.htmlEnd = e
		} else if isListItem(rest) {
			s.segList = true
			s.itemIndent = ind + contentOffset(rest)
		}
	}
	s.prevBlank = false
}

// scanPartial looks at the start of the line being written: a column-0 line after a blank
// line starts a new block as soon as its first byte arrives, unless it may be a list item.
func (s *Stream) scanPartial(line string) {
	if line == "" || line[0] == ' ' || line[0] == '\t' || !s.prevBlank || s.segList ||
		s.fence.open || s.htmlEnd != "" {
		return
	}
	if !strings.ContainsRune("-+*0123456789", rune(line[0])) && s.closedAt(s.scanPos, false) {
		s.cut(s.scanPos)
	}
}

// closedAt reports whether a new top-level block can start at offset at (a line start) with
// a line that is a list item or not: the parser sees a thematic break put there as a top-level
// block of its own, so no block of the open segment (fence, HTML block, list item, quote,
// paragraph) would swallow a line there; and a list item must not follow a list, which it
// would extend. The parse is cached per offset, as the partial line asks on every write.
func (s *Stream) closedAt(at int, listItem bool) bool {
	if at <= s.segStart {
		return true
	}
	if s.checked != at {
		src := s.text.String()[s.segStart:at] + "***\n"
		doc := s.r.md.Parser().Parse(gmtext.NewReader([]byte(src)))
		last := doc.LastChild()
		s.checked, s.checkedOK, s.checkedList = at, last != nil && last.Kind() == ast.KindThematicBreak, false
		if s.checkedOK && last.PreviousSibling() != nil {
			s.checkedList = last.PreviousSibling().Kind() == ast.KindList
		}
	}
	return s.checkedOK && !(listItem && s.checkedList)
}

// cut ends the open segment at offset at: it becomes a completed block.
func (s *Stream) cut(at int) {
	if at <= s.segStart {
		return
	}
	src := s.text.String()[s.segStart:at]
	s.segStart = at
	s.segList = false
	if isBlank(src) {
		return
	}
	var b Block
	if s.fence.seg && s.fence.open {
		b.Code, b.Lang = true, s.fence.lang
		b.Text = s.text.String()[s.fence.codeStart:at]
		b.Text = b.Text[:strings.LastIndexByte(strings.TrimSuffix(b.Text, "\n"), '\n')+1]
		b.html = codeHTML(s.fence.lang, s.codeEsc.String(), "")
	} else {
		b.html = s.r.Render(s.withDefs(src))
	}
	s.done = append(s.done, b)
	s.doneSrc = append(s.doneSrc, src)
}

// addDef records a line that looks like a link reference definition when the parser agrees
// it defines a new label. A definition applies to every block, so the completed blocks are
// rendered again (rare: answers seldom use reference links).
func (s *Stream) addDef(line string, end int) {
	pc := parser.NewContext()
	s.r.md.Parser().Parse(gmtext.NewReader([]byte(s.text.String()[s.segStart:end])), parser.WithContext(pc))
	added := false
	for _, ref := range pc.References() {
		label := string(ref.Label())
		if !slices.Contains(s.defLabels, label) {
			s.defLabels = append(s.defLabels, label)
			added = true
		}
	}
	if !added {
		return
	}
	s.defs += line + "\n"
	for i, src := range s.doneSrc {
		if !s.done[i].Code {
			s.done[i].html = s.r.Render(s.withDefs(src))
		}
	}
}

// withDefs puts the link reference definitions before a block's Markdown (before, so an open
// block at the end cannot swallow them). They render to nothing.
func (s *Stream) withDefs(src string) string {
	if s.defs == "" {
		return src
	}
	return s.defs + "\n" + src
}

// renderTail renders the open segment, when it changed since the last call.
func (s *Stream) renderTail() Block {
	if s.tailValid {
		return s.tail
	}
	text := s.text.String()
	src := text[s.segStart:]
	switch {
	case isBlank(src):
		s.tail = Block{}
	case s.fence.open && s.fence.seg:
		code := text[s.fence.codeStart:]
		s.tail = Block{Code: true, Lang: s.fence.lang, Text: code, Open: !s.closed}
		s.tail.escaped, s.tail.partial = s.codeEsc.String(), text[s.scanPos:]
		if s.closed {
			s.tail.html = codeHTML(s.tail.Lang, s.tail.escaped, s.tail.partial)
		}
	default:
		s.tail = Block{html: s.r.Render(s.withDefs(src)), Open: !s.closed}
	}
	s.tailValid = true
	return s.tail
}

// codeHTML renders a fenced code block without goldmark, exactly as goldmark and the policy
// would render it: escaped is the code's complete lines, already escaped, and partial the line
// being written. Escaping each line once keeps an update cheap however long the code gets.
func codeHTML(lang, escaped, partial string) string {
	var b strings.Builder
	b.Grow(len(escaped) + len(partial)*2 + 64)
	b.WriteString("<pre><code")
	if lang != "" && codeClass.MatchString("language-"+lang) {
		b.WriteString(` class="language-` + lang + `"`)
	}
	b.WriteString(">")
	b.WriteString(escaped)
	if partial != "" {
		b.WriteString(html.EscapeString(partial))
		b.WriteString("\n")
	}
	b.WriteString("</code></pre>\n")
	return b.String()
}
