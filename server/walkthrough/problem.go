package walkthrough

import (
	"errors"
	"fmt"

	"loupe/app/catalog"
)

// Problem is one thing wrong with a document, at its place. Loading joins them (errors.Join);
// Problems takes them apart again for the browser, which shows each at its line.
type Problem struct {
	// File is the document's name as errors show it.
	File string
	// Line is the 1-based line; 0 when unknown.
	Line int
	// Pointer is the JSON pointer of the place ("/workflows/0/steps/1"); "" for the document.
	Pointer string
	// Msg says what is wrong and, where it can, what to do.
	Msg string
}

// Error reads "file:line: /pointer: message", the line and pointer left out when unknown.
func (p *Problem) Error() string {
	msg := p.Msg
	if p.Pointer != "" {
		msg = p.Pointer + ": " + msg
	}
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, msg)
	}
	return fmt.Sprintf("%s: %s", p.File, msg)
}

// Problems lists the problems an error of Load, LoadFiles or Parse joins, in order; an error
// that is no Problem is one without a place.
func Problems(err error) []catalog.WalkProblem {
	if err == nil {
		return nil
	}
	var p *Problem
	if errors.As(err, &p) && p == err {
		return []catalog.WalkProblem{{Line: p.Line, Pointer: p.Pointer, Message: p.Msg}}
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []catalog.WalkProblem
		for _, e := range j.Unwrap() {
			out = append(out, Problems(e)...)
		}
		return out
	}
	if errors.As(err, &p) {
		return []catalog.WalkProblem{{Line: p.Line, Pointer: p.Pointer, Message: p.Msg}}
	}
	return []catalog.WalkProblem{{Message: err.Error()}}
}
