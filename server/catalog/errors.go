package catalog

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Error is one problem in a content file: the file (as "content/openapi/chat.yaml"), the
// 1-based line it is on (0 when unknown) and what is wrong. Its text is "file:line: msg", the
// form editors and CI logs link to.
//
// In a document of your own, which may be one line of JSON, a problem also names its column
// and the JSON pointer of its place ("file:1:31517: what (at #/components/examples/User)").
type Error struct {
	File string
	Line int
	Msg  string
	// Column is the 1-based column; 0 when unknown or not asked for.
	Column int
	// Pointer is the JSON pointer of the place ("#/paths/~1pets/get"); empty when unknown.
	Pointer string
}

// Error formats the problem as "file:line: msg", or "file:line:column: msg (at pointer)".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Pointer != "" {
		b.WriteString(" (at " + e.Pointer + ")")
	}
	return b.String()
}

// problems collects the errors of one file, and the warnings of a document of your own.
type problems struct {
	file     string
	errs     []*Error
	warnings []*Error
	// root is the document's YAML tree; pointers asks for each problem's column and JSON
	// pointer (a document of your own), found in it.
	root     *yaml.Node
	pointers bool
	paths    map[*yaml.Node]string // node -> JSON pointer, built on first use
}

// add records a problem at the line of node (0 when node is nil).
func (p *problems) add(node *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, p.at(node, fmt.Sprintf(format, args...)))
}

// warnAt records a warning at node.
func (p *problems) warnAt(node *yaml.Node, format string, args ...any) {
	p.warnings = append(p.warnings, p.at(node, fmt.Sprintf(format, args...)))
}

// at makes the Error of a problem at node.
func (p *problems) at(node *yaml.Node, msg string) *Error {
	e := &Error{File: p.file, Line: lineOf(node), Msg: msg}
	if p.pointers && node != nil {
		e.Column = node.Column
		e.Pointer = p.pointer(node)
	}
	return e
}

// maxWarnings bounds the warnings an API's page lists.
const maxWarnings = 50

// warningTexts returns the warnings as the page shows them, in document order, once each.
func (p *problems) warningTexts() []string {
	slices.SortStableFunc(p.warnings, func(a, b *Error) int { return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column)) })
	var out []string
	seen := map[string]bool{}
	for _, w := range p.warnings {
		if s := w.Error(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if len(out) > maxWarnings {
		out = append(out[:maxWarnings], fmt.Sprintf("%s: and %d more", p.file, len(out)-maxWarnings))
	}
	return out
}

// pointer returns the JSON pointer of a node of the document ("#/paths/~1pets/get"), or ""
// when it is not in the tree (a node libopenapi made).
func (p *problems) pointer(node *yaml.Node) string {
	if p.paths == nil {
		p.paths = map[*yaml.Node]string{}
		root := p.root
		if root != nil && root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
			root = root.Content[0]
		}
		var walk func(n *yaml.Node, path string, depth int)
		walk = func(n *yaml.Node, path string, depth int) {
			if n == nil || depth > 200 {
				return
			}
			if _, seen := p.paths[n]; seen {
				return
			}
			p.paths[n] = "#" + path
			switch n.Kind {
			case yaml.MappingNode:
				for i := 0; i+1 < len(n.Content); i += 2 {
					child := path + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(n.Content[i].Value)
					if _, seen := p.paths[n.Content[i]]; !seen {
						p.paths[n.Content[i]] = "#" + child
					}
					walk(n.Content[i+1], child, depth+1)
				}
			case yaml.SequenceNode:
				for i, c := range n.Content {
					walk(c, path+"/"+strconv.Itoa(i), depth+1)
				}
			}
		}
		walk(root, "", 0)
	}
	return p.paths[node]
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
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		if e := jsonSyntaxError(file, data); e != nil {
			return e
		}
	}
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

// jsonSyntaxError locates the syntax error of a JSON document by line and column (a document
// on one line would otherwise say only "line 1"), or returns nil when it is valid JSON.
func jsonSyntaxError(file string, data []byte) *Error {
	var v any
	err := json.Unmarshal(data, &v)
	if err == nil {
		return nil
	}
	offset := int64(len(data))
	var se *json.SyntaxError
	if errors.As(err, &se) {
		offset = se.Offset
	}
	before := data[:min(int(offset), len(data))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if msg == "unexpected end of JSON input" {
		msg = "the document ends before its JSON does (is it truncated?)"
	}
	return &Error{File: file, Line: line, Column: col, Msg: fmt.Sprintf("JSON syntax: %s (byte %d)", msg, offset)}
}
