package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	htmlpkg "html"
	"strconv"
	"strings"
	"time"
)

// PlainText strips the tags of a sanitized HTML fragment, for places that take text only
// (option labels, titles).
func PlainText(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(htmlpkg.UnescapeString(b.String())), " ")
}

// FormatJSON indents JSON text by two spaces; ok is false when it is not JSON.
func FormatJSON(text string) (string, bool) {
	var out bytes.Buffer
	if err := json.Indent(&out, []byte(strings.TrimSpace(text)), "", "  "); err != nil {
		return text, false
	}
	return out.String(), true
}

// HumanSize writes a byte count: "812 B", "14.2 kB", "3.1 MB".
func HumanSize(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// HumanDuration writes a duration at a useful precision: "38 ms", "1.24 s".
func HumanDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// Itoa writes n in decimal.
func Itoa(n int) string { return strconv.Itoa(n) }

// BoolAttr is an ARIA attribute's value for b: "true", or "" (no attribute) for false.
func BoolAttr(b bool) string {
	if b {
		return "true"
	}
	return ""
}

// Plural writes a count with its noun: "1 " + one, else n and many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Itoa(n) + " " + many
}

// CopyText is a Copy button's label: "Copied" just after a copy, else "Copy".
func CopyText(copied bool) string {
	if copied {
		return "Copied"
	}
	return "Copy"
}

// BoolText writes b as "true" or "false", for an attribute that needs both (aria-expanded).
func BoolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// ErrorText is the message of an error answer: the cluster's reason, the proxy's message, or
// the status.
func ErrorText(body []byte, status int) string {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &e) == nil {
		var env struct {
			Reason string `json:"reason"`
		}
		var s string
		switch {
		case json.Unmarshal(e.Error, &env) == nil && env.Reason != "":
			return env.Reason
		case json.Unmarshal(e.Error, &s) == nil && s != "":
			return s
		case e.Message != "":
			return e.Message
		}
	}
	text := strings.TrimSpace(string(body))
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	return "HTTP " + Itoa(status) + " " + text
}

// Shorten cuts s to at most n runes, marking the cut with an ellipsis.
func Shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
