package reports

import (
	"encoding/json"
	"testing"
)

// auditTestCatalog is a catalogue with three events, one with a Gregorian time.
var auditTestCatalog = map[string]json.RawMessage{
	"x-loupe-events": json.RawMessage(`[
		{"name":"change_calendar_acls","group":"calendar_change","parameters":["access_level","grantee_email"],"message":"{actor} changed the access level on a calendar for {grantee_email} to {access_level}"},
		{"name":"change_event_start_time","group":"event_change","parameters":["event_title","start_time"],"message":"{actor} changed the start time of {event_title}"},
		{"name":"interop_freebusy_lookup_outbound_successful","group":"interop","parameters":["remote_ews_url"],"message":"{actor} looked up free/busy from {IP_ADDRESS_IDENTIFIER} at {remote_ews_url}"}]`),
	"x-loupe-event-parameters": json.RawMessage(`{"start_time":{"type":"integer","gregorianSeconds":true,"unixOffset":62135683200}}`),
}

func TestAuditSentences(t *testing.T) {
	body := []byte(`{"items":[
		{"id":{"time":"2026-11-20T09:15:00.000Z"},"actor":{"email":"ana@example.com"},"events":[{"type":"calendar_change","name":"change_calendar_acls","parameters":[{"name":"grantee_email","value":"bo@example.com"},{"name":"access_level","value":"read"}]}]},
		{"id":{"time":"2026-11-20T08:00:00.000Z"},"actor":{"callerType":"KEY","key":"client-7"},"ipAddress":"203.0.113.9","events":[{"type":"interop","name":"interop_freebusy_lookup_outbound_successful","parameters":[{"name":"remote_ews_url","value":"https://ews.example/ews"}]}]},
		{"id":{"time":"2026-11-19T23:59:59.000Z"},"actor":{"email":"ana@example.com"},"events":[{"type":"event_change","name":"change_event_start_time","parameters":[{"name":"start_time","intValue":"63906044400"}]},{"type":"x","name":"unknown_event","parameters":[]}]}]}`)
	recs, ok := parseAuditRecords(body)
	if !ok || len(recs) != 3 {
		t.Fatalf("records: got %d, %v; want 3", len(recs), ok)
	}
	c := readAuditCatalog(auditTestCatalog)
	tests := []struct {
		rec, ev int
		want    string
	}{
		{0, 0, "ana@example.com changed the access level on a calendar for bo@example.com to read"},
		{1, 0, "client-7 looked up free/busy from 203.0.113.9 at https://ews.example/ews"},
		{2, 0, "ana@example.com changed the start time of (no event_title)"},
		{2, 1, "ana@example.com unknown event"},
	}
	for _, tt := range tests {
		if got := c.sentence(recs[tt.rec], recs[tt.rec].Events[tt.ev]); got != tt.want {
			t.Errorf("record %d event %d: got %q; want %q", tt.rec, tt.ev, got, tt.want)
		}
	}
	// 63906044400 Gregorian seconds is Unix 1770361200: 2026-02-06 07:00 UTC.
	if got, ok := c.gregorian(recs[2].Events[0].Parameters[0]); !ok || got.Format("2006-01-02T15:04Z") != "2026-02-06T07:00Z" {
		t.Errorf("gregorian: got %v, %v; want 2026-02-06T07:00Z", got, ok)
	}
	days := byDay(recs)
	if len(days) != 2 || days[0].day != "2026-11-20" || len(days[0].records) != 2 || days[1].day != "2026-11-19" {
		t.Errorf("days: got %+v; want 2026-11-20 (2 records), 2026-11-19 (1)", days)
	}
	if got := c.groups; len(got) != 3 || got[0] != "calendar_change" {
		t.Errorf("groups: got %v", got)
	}
	if _, ok := parseAuditRecords([]byte(`[1]`)); ok {
		t.Errorf("a list that is not an activity list parsed")
	}
}
