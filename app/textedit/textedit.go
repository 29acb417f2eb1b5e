// Package textedit holds the editing keys of Loupe's code editors (a plain textarea): Tab and
// Shift+Tab indent and outdent the selected lines, Enter keeps the line's indentation, a
// closing bracket typed on a blank line lines up with the line that opened it; and the
// highlighting of the code they show (highlight.go). Offsets are in UTF-16 code units, as the
// DOM's selectionStart and selectionEnd count them. The package has no dependency on
// syscall/js.
package textedit

import (
	"strings"
	"unicode/utf16"
)

// Unit is one level of indentation.
const Unit = "  "

// Edit is a textarea's text with its selection, offsets in UTF-16 code units.
type Edit struct {
	// Text is the whole text.
	Text string
	// Start and End delimit the selection; equal for a caret.
	Start, End int
}

// Indent inserts one Unit at the caret, or at the start of every selected line when the
// selection spans lines.
func Indent(e Edit) Edit {
	u, start, end := units(e)
	unit := utf16.Encode([]rune(Unit))
	if !spansLines(u, start, end) {
		out := splice(u, start, end, Unit)
		return Edit{Text: out, Start: start + len(unit), End: start + len(unit)}
	}
	var b []uint16
	prev, shiftStart, shiftEnd := 0, 0, 0
	last := lastLine(u, start, end)
	for ls := lineStart(u, start); ; ls = nextLine(u, ls) {
		b = append(append(b, u[prev:ls]...), unit...)
		prev = ls
		if ls <= start {
			shiftStart += len(unit)
		}
		if ls < end {
			shiftEnd += len(unit)
		}
		if ls >= last {
			break
		}
	}
	b = append(b, u[prev:]...)
	return Edit{Text: decode(b), Start: start + shiftStart, End: end + shiftEnd}
}

// Outdent removes up to one Unit of leading spaces from every line the selection touches.
func Outdent(e Edit) Edit {
	u, start, end := units(e)
	var b []uint16
	prev, shiftStart, shiftEnd := 0, 0, 0
	last := lastLine(u, start, end)
	for ls := lineStart(u, start); ; ls = nextLine(u, ls) {
		n := 0
		for n < len(Unit) && ls+n < len(u) && u[ls+n] == ' ' {
			n++
		}
		b = append(b, u[prev:ls]...)
		prev = ls + n
		shiftStart += overlap(ls, n, start)
		shiftEnd += overlap(ls, n, end)
		if ls >= last {
			break
		}
	}
	b = append(b, u[prev:]...)
	return Edit{Text: decode(b), Start: start - shiftStart, End: end - shiftEnd}
}

// Newline replaces the selection with a line break followed by the current line's
// indentation, one Unit more after an opening bracket.
func Newline(e Edit) Edit {
	u, start, end := units(e)
	ls := lineStart(u, start)
	indent := 0
	for ls+indent < start && (u[ls+indent] == ' ' || u[ls+indent] == '\t') {
		indent++
	}
	ins := "\n" + decode(u[ls:ls+indent])
	if before := strings.TrimRight(decode(u[ls:start]), " \t"); strings.HasSuffix(before, "{") || strings.HasSuffix(before, "[") {
		ins += Unit
	}
	out := splice(u, start, end, ins)
	n := start + len(utf16.Encode([]rune(ins)))
	return Edit{Text: out, Start: n, End: n}
}

// Close types closer ("}", "]" or ")") at the caret. When only indentation comes before the
// caret on its line, that indentation becomes the indentation of the line holding the matching
// opening bracket (one Unit less when there is none), so a block's closing brace lines up with
// the line that opened it instead of staircasing to the right. A selection is replaced.
func Close(e Edit, closer rune) Edit {
	u, start, end := units(e)
	ls := lineStart(u, start)
	if start != end || strings.TrimLeft(decode(u[ls:start]), " \t") != "" {
		out := splice(u, start, end, string(closer))
		return Edit{Text: out, Start: start + 1, End: start + 1}
	}
	indent := max(start-ls-len(Unit), 0)
	if open := matchingOpen(u, ls, closer); open >= 0 {
		ols := lineStart(u, open)
		indent = 0
		for ols+indent < len(u) && (u[ols+indent] == ' ' || u[ols+indent] == '\t') {
			indent++
		}
		ins := decode(u[ols:ols+indent]) + string(closer)
		out := decode(u[:ls]) + ins + decode(u[end:])
		n := ls + len(utf16.Encode([]rune(ins)))
		return Edit{Text: out, Start: n, End: n}
	}
	ins := decode(u[ls:ls+indent]) + string(closer)
	out := decode(u[:ls]) + ins + decode(u[end:])
	n := ls + len(utf16.Encode([]rune(ins)))
	return Edit{Text: out, Start: n, End: n}
}

// matchingOpen returns the offset of the bracket that closer would close, the last one before
// offset before that is still open, or -1.
func matchingOpen(u []uint16, before int, closer rune) int {
	open := map[rune]uint16{'}': '{', ']': '[', ')': '('}[closer]
	depth := 0
	for i := before - 1; i >= 0; i-- {
		switch u[i] {
		case uint16(closer):
			depth++
		case open:
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// units returns the text in UTF-16 code units and the selection, within the text and in order.
func units(e Edit) ([]uint16, int, int) {
	u := utf16.Encode([]rune(e.Text))
	start, end := min(max(e.Start, 0), len(u)), min(max(e.End, 0), len(u))
	return u, min(start, end), max(start, end)
}

// lineStart returns the offset of the start of the line holding offset i.
func lineStart(u []uint16, i int) int {
	for i > 0 && u[i-1] != '\n' {
		i--
	}
	return i
}

// nextLine returns the offset just after the line break ending the line that starts at i, or
// len(u) on the last line.
func nextLine(u []uint16, i int) int {
	for i < len(u) {
		if u[i] == '\n' {
			return i + 1
		}
		i++
	}
	return len(u)
}

// lastLine returns the start of the last line the selection touches; a selection ending just
// after a line break does not touch the next line.
func lastLine(u []uint16, start, end int) int {
	if end > start && u[end-1] == '\n' {
		end--
	}
	return lineStart(u, end)
}

func spansLines(u []uint16, start, end int) bool {
	for _, c := range u[start:end] {
		if c == '\n' {
			return true
		}
	}
	return false
}

// overlap counts how many of the n characters removed at i come before offset pos.
func overlap(i, n, pos int) int { return min(max(pos-i, 0), n) }

func splice(u []uint16, start, end int, ins string) string {
	return decode(u[:start]) + ins + decode(u[end:])
}

func decode(u []uint16) string { return string(utf16.Decode(u)) }
