package catalog

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v4"
)

// Error is one problem in a content file: the file (as "content/openapi/chat.yaml"), the
// 1-based line it is on (0 when unknown) and what is wrong. Its text is "file:line: msg", the
// form editors and CI logs link to.
type Error struct {
	File string
	Line int
	Msg  string
}

// Error formats the problem as "file:line: msg".
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// problems collects the errors of one file.
type problems struct {
	file string
	errs []*Error
}

// add records a problem at the line of node (0 when node is nil).
func (p *problems) add(node *yaml.Node, format string, args ...any) {
	p.addLine(lineOf(node), format, args...)
}

// addLine records a problem at a line.
func (p *problems) addLine(line int, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// err returns the problems sorted by line, joined, or nil when there are none.
func (p *problems) err() error {
	if len(p.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(p.errs, func(a, b *Error) int { return cmp.Compare(a.Line, b.Line) })
	errs := make([]error, 0, len(p.errs))
	seen := map[string]bool{}
	for _, e := range p.errs {
		if s := e.Error(); !seen[s] {
			seen[s] = true
			errs = append(errs, e)
		}
	}
	return errors.Join(errs...)
}

// lineOf returns the line of a YAML node, or 0.
func lineOf(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	return n.Line
}

// lineInText finds a line number in an error text from libopenapi, which formats positions
// as "L12.C3", "line 12" or "line: 12".
var lineInText = regexp.MustCompile(`(?:\bL|\bline:? )(\d+)`)

// syntaxError turns a parse error into an Error with a line. The YAML parser's structured
// error carries the position; libopenapi flattens it into text, so the text is parsed again
// with the YAML library to recover it, and the message is searched as a last resort.
func syntaxError(file string, data []byte, err error) *Error {
	var n yaml.Node
	if yerr := yaml.Unmarshal(data, &n); yerr != nil {
		var le *yaml.LoadError
		if errors.As(yerr, &le) && le.Mark.Line > 0 {
			msg := "YAML syntax: " + le.Message
			if le.ContextMsg != "" && le.ContextMark.Line > 0 && le.ContextMark.Line != le.Mark.Line {
				msg += fmt.Sprintf(" (%s that starts on line %d)", le.ContextMsg, le.ContextMark.Line)
			} else if le.ContextMsg != "" {
				msg += " (" + le.ContextMsg + ")"
			}
			return &Error{File: file, Line: le.Mark.Line, Msg: msg}
		}
		err = yerr
	}
	return &Error{File: file, Line: lineFromText(err.Error()), Msg: err.Error()}
}

// lineFromText returns the first line number mentioned in an error text, or 0.
func lineFromText(s string) int {
	if m := lineInText.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}
