// Package sse parses Server-Sent Events incrementally, as the bytes of a response body arrive,
// and folds the chat.completion.chunk events of a chat completion stream into one answer.
//
// It follows the event stream interpretation of the HTML standard: lines end with "\n", "\r\n"
// or "\r"; a blank line dispatches the event; "data" lines are joined with "\n"; lines starting
// with ":" are comments; a line without ":" is a field with an empty value. The package has no
// dependency on syscall/js, so it is tested natively.
package sse

import (
	"bytes"
	"strconv"
	"strings"
)

// Event is one dispatched event.
type Event struct {
	// ID is the last event ID seen in the stream so far (it carries over between events).
	ID string
	// Event is the event type; empty means the default type, "message".
	Event string
	// Data holds the data lines of the event joined with "\n".
	Data string
	// Retry is the last reconnection time in milliseconds the stream asked for; 0 when none.
	Retry int
}

// Parser turns the bytes of an event stream into events. The zero value is ready to use.
// A Parser is not safe for concurrent use.
type Parser struct {
	line      []byte // the current, unterminated line
	skipLF    bool   // the previous chunk ended with "\r": a leading "\n" belongs to it
	started   bool   // the first byte was seen (a leading BOM is dropped)
	data      strings.Builder
	hasData   bool
	eventType string
	lastID    string
	retry     int
}

// Feed parses the next chunk of the stream, which may split lines and line endings at any
// byte, and returns the events it completes, in order.
func (p *Parser) Feed(chunk []byte) []Event {
	var events []Event
	if !p.started && len(chunk) > 0 {
		p.started = true
		p.line = append(p.line, chunk...)
		if len(p.line) < 3 && bytes.HasPrefix([]byte("\xEF\xBB\xBF"), p.line) {
			// Too short to tell whether it is a BOM: wait for more.
			p.started = false
			return nil
		}
		chunk = bytes.TrimPrefix(p.line, []byte("\xEF\xBB\xBF"))
		p.line = nil
	}
	for len(chunk) > 0 {
		if p.skipLF {
			p.skipLF = false
			if chunk[0] == '\n' {
				chunk = chunk[1:]
				continue
			}
		}
		i := bytes.IndexAny(chunk, "\r\n")
		if i < 0 {
			p.line = append(p.line, chunk...)
			return events
		}
		var line []byte
		if len(p.line) > 0 {
			p.line = append(p.line, chunk[:i]...)
			line = p.line
		} else {
			line = chunk[:i]
		}
		if chunk[i] == '\r' {
			p.skipLF = true
		}
		chunk = chunk[i+1:]
		if ev, ok := p.processLine(line); ok {
			events = append(events, ev)
		}
		p.line = p.line[:0]
	}
	return events
}

// Finish ends the stream. The standard discards an event that the stream cut before its blank
// line; Finish is lenient and dispatches it when it has data, since servers often omit the
// last blank line. It returns that event, if any, and resets the parser for a new stream.
func (p *Parser) Finish() []Event {
	var events []Event
	if len(p.line) > 0 {
		p.processLine(p.line)
	}
	if ev, ok := p.processLine(nil); ok {
		events = append(events, ev)
	}
	*p = Parser{}
	return events
}

// processLine interprets one line; a blank line dispatches the pending event.
func (p *Parser) processLine(line []byte) (Event, bool) {
	if len(line) == 0 {
		return p.dispatch()
	}
	if line[0] == ':' {
		return Event{}, false
	}
	field, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(field) {
	case "data":
		if p.hasData {
			p.data.WriteByte('\n')
		}
		p.data.Write(value)
		p.hasData = true
	case "event":
		p.eventType = string(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			p.lastID = string(value)
		}
	case "retry":
		if n, err := strconv.Atoi(string(value)); err == nil && n >= 0 && isDigits(value) {
			p.retry = n
		}
	}
	return Event{}, false
}

// dispatch returns the pending event, if it has data, and clears the event buffers.
func (p *Parser) dispatch() (Event, bool) {
	if !p.hasData {
		p.eventType = ""
		return Event{}, false
	}
	ev := Event{ID: p.lastID, Event: p.eventType, Data: p.data.String(), Retry: p.retry}
	p.data = strings.Builder{}
	p.hasData = false
	p.eventType = ""
	return ev, true
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}
