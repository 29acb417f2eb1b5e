package request

import (
	"strings"
	"time"

	"loupe/app/catalog"
)

// checkFormat checks a string against the formats a user types by hand (date-time, date) and
// says how to write it, or returns "". Other formats are not checked.
func checkFormat(format, v string) string {
	switch format {
	case "date-time":
		if _, err := time.Parse(time.RFC3339, v); err != nil {
			return "not a date-time: write it as RFC 3339, for example 2026-01-31T09:30:00Z"
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			return "not a date: write it as YYYY-MM-DD, for example 2026-01-31"
		}
	}
	return ""
}

// notInForm says that a value does not match the schema's pattern in words, with an accepted
// value when the schema gives one, never the regular expression itself.
func notInForm(s *catalog.Schema) string {
	ex := s.Example
	if len(ex) == 0 {
		ex = s.Default
	}
	if len(ex) > 0 {
		return "not in the accepted form; for example " + Text(ex) + " (the field's description says what is accepted)"
	}
	return "not in the accepted form: the field's description says what is accepted"
}

// trimNumbers drops the spaces around the values of a number or integer: " 7 " is sent as 7,
// never as +7+ (the checks already read it as 7). Other values are sent as typed.
func trimNumbers(s *catalog.Schema, vals []string) []string {
	if s == nil || (s.Type != "integer" && s.Type != "number") {
		return vals
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = strings.TrimSpace(v)
	}
	return out
}
