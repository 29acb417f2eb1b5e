package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	htmlpkg "html"
	"strings"
	"time"
)

// plainText strips the tags of a sanitized HTML fragment, for places that take text only
// (option labels, titles).
func plainText(s string) string {
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

// formatJSON indents JSON text by two spaces; ok is false when it is not JSON.
func formatJSON(text string) (string, bool) {
	var out bytes.Buffer
	if err := json.Indent(&out, []byte(strings.TrimSpace(text)), "", "  "); err != nil {
		return text, false
	}
	return out.String(), true
}

// humanSize writes a byte count: "812 B", "14.2 kB", "3.1 MB".
func humanSize(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// humanDuration writes a duration at a useful precision: "38 ms", "1.24 s".
func humanDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}
