package proxy

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAuditLineWhoFormattedOnce: a call's audit line is the same whether its user, API and
// operation come from a handler that formatted them once (auditWho) or, once maxAuditWho
// handlers are kept, from the record, as every line once did: the same attributes in the same
// order, quoted the same way.
func TestAuditLineWhoFormattedOnce(t *testing.T) {
	var buf bytes.Buffer
	dropClock := func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == "duration" {
			return slog.Attr{}
		}
		return a
	}
	p := New(Config{Audit: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropClock}))})
	up := &upstream{slug: "chat"}
	line := func(user, op, reason string) string {
		buf.Reset()
		r := httptest.NewRequest("POST", "/proxy/chat/v1/chat/completions", strings.NewReader("abc"))
		c := &call{user: user, op: op, reason: reason, up: up}
		c.recv.status, c.recv.bytes = 201, 42
		p.audit(r, c, &c.recv, time.Now())
		return buf.String()
	}
	// want is the line, %s where the user is written (quoted when it holds a space).
	tests := []struct {
		name, user, op, reason string
		want                   string
	}{
		{"a call", "ann", "createChatCompletion", "",
			`level=INFO msg="proxy call" user=%s api=chat operation=createChatCompletion method=POST status=201 bytes=42 bytes_in=3` + "\n"},
		{"a failed call", "ann", "createChatCompletion", "upstream timeout",
			`level=INFO msg="proxy call" user=%s api=chat operation=createChatCompletion method=POST status=201 bytes=42 bytes_in=3 outcome="upstream timeout"` + "\n"},
		{"an undocumented call", "Ann B", "", "",
			`level=INFO msg="proxy call" user=%s api=chat operation=- method=POST status=201 bytes=42 bytes_in=3` + "\n"},
	}
	shown := func(user string) string {
		if strings.Contains(user, " ") {
			return strconv.Quote(user)
		}
		return user
	}
	for _, full := range []bool{false, true} {
		if full { // every user not in the table from now on gets their attributes in the record
			for i := 0; p.auditWho(auditKey{user: strconv.Itoa(i)}) != nil; i++ {
			}
		}
		for _, tt := range tests {
			users := []string{tt.user}
			if full {
				users = append(users, tt.user+"-2") // not in the table
			}
			for _, user := range users {
				want := fmt.Sprintf(tt.want, shown(user))
				for range 2 { // the first line may make the handler, the second uses it
					if got := line(user, tt.op, tt.reason); got != want {
						t.Errorf("%s, user %q (table full: %v): got %q; want %q", tt.name, user, full, got, want)
					}
				}
			}
		}
	}
}
