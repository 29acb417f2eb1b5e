package sse

import (
	"reflect"
	"testing"
)

// parseAll feeds the stream in the given pieces, then finishes it.
func parseAll(pieces ...string) []Event {
	var p Parser
	var got []Event
	for _, s := range pieces {
		got = append(got, p.Feed([]byte(s))...)
	}
	return append(got, p.Finish()...)
}

func TestParser(t *testing.T) {
	tests := []struct {
		name   string
		pieces []string
		want   []Event
	}{
		{"one event", []string{"data: hello\n\n"}, []Event{{Data: "hello"}}},
		{"multi-line data is joined with newlines", []string{"data: a\ndata: b\ndata:\n\n"}, []Event{{Data: "a\nb\n"}}},
		{"CRLF line endings", []string{"data: a\r\ndata: b\r\n\r\n"}, []Event{{Data: "a\nb"}}},
		{"CR line endings", []string{"data: a\rdata: b\r\r"}, []Event{{Data: "a\nb"}}},
		{"CRLF split between chunks", []string{"data: a\r", "\n\r", "\n"}, []Event{{Data: "a"}}},
		{"line split inside a field name", []string{"da", "ta: x\n", "\n"}, []Event{{Data: "x"}}},
		{"comments are ignored", []string{": ping\n\ndata: x\n: mid\n\n"}, []Event{{Data: "x"}}},
		{"event type and id", []string{"event: add\nid: 7\ndata: x\n\n"}, []Event{{ID: "7", Event: "add", Data: "x"}}},
		{"the last id carries over", []string{"id: 1\ndata: a\n\ndata: b\n\n"}, []Event{{ID: "1", Data: "a"}, {ID: "1", Data: "b"}}},
		{"an id with NUL is ignored", []string{"id: 1\ndata: a\n\nid: 2\x00\ndata: b\n\n"}, []Event{{ID: "1", Data: "a"}, {ID: "1", Data: "b"}}},
		{"retry", []string{"retry: 3000\ndata: a\n\nretry: x1\ndata: b\n\n"}, []Event{{Data: "a", Retry: 3000}, {Data: "b", Retry: 3000}}},
		{"only one leading space is stripped", []string{"data:  two\n\n"}, []Event{{Data: " two"}}},
		{"no space after the colon", []string{"data:x\n\n"}, []Event{{Data: "x"}}},
		{"a field without colon has an empty value", []string{"data\n\n"}, []Event{{Data: ""}}},
		{"unknown fields are ignored", []string{"foo: bar\ndata: x\n\n"}, []Event{{Data: "x"}}},
		{"an event without data is not dispatched", []string{"event: x\n\ndata: y\n\n"}, []Event{{Data: "y"}}},
		{"a leading BOM is dropped", []string{"\xEF\xBB", "\xBFdata: x\n\n"}, []Event{{Data: "x"}}},
		{"a cut last event is dispatched by Finish", []string{"data: [DONE]"}, []Event{{Data: "[DONE]"}}},
		{"byte by byte", []string{"d", "a", "t", "a", ":", " ", "x", "\r", "\n", "\r", "\n"}, []Event{{Data: "x"}}},
		{"empty stream", nil, nil},
		{"chat chunks", []string{"data: {\"a\":1}\n\ndata: [DONE]\n\n"}, []Event{{Data: `{"a":1}`}, {Data: "[DONE]"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseAll(tt.pieces...)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v; want %+v", got, tt.want)
			}
		})
	}
}

func TestParserEventsComeAsSoonAsTheirBlankLineArrives(t *testing.T) {
	var p Parser
	if got := p.Feed([]byte("data: a\n")); len(got) != 0 {
		t.Fatalf("got %+v before the blank line; want nothing", got)
	}
	got := p.Feed([]byte("\ndata: b"))
	if want := []Event{{Data: "a"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v; want %+v", got, want)
	}
}

// FuzzParser checks that splitting a stream anywhere never changes its events.
func FuzzParser(f *testing.F) {
	f.Add([]byte("data: a\r\n\r\ndata: b\rid: 1\r\revent: e\ndata: c\n\n"), uint8(3))
	f.Add([]byte(": c\n\nretry: 10\ndata\n\n\xEF\xBB\xBFdata: x\n\n"), uint8(1))
	f.Add([]byte("\xEF\xBB\xBFdata: {\"choices\":[]}\n\ndata: [DONE]\n\n"), uint8(7))
	f.Fuzz(func(t *testing.T, stream []byte, step uint8) {
		whole := parseAll(string(stream))
		n := int(step%16) + 1
		var pieces []string
		for i := 0; i < len(stream); i += n {
			pieces = append(pieces, string(stream[i:min(i+n, len(stream))]))
		}
		split := parseAll(pieces...)
		if !reflect.DeepEqual(split, whole) {
			t.Fatalf("split by %d: got %+v; want %+v", n, split, whole)
		}
		for _, ev := range whole {
			for i := 0; i < len(ev.Data); i++ {
				if ev.Data[i] == '\r' {
					t.Fatalf("data %q holds a CR", ev.Data)
				}
			}
		}
	})
}
