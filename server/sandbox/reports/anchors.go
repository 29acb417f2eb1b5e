package reports

import (
	"fmt"
	"time"
)

// anchors are the two records of the documented 200 example, verbatim: they are the newest of
// the dataset, so GET .../users/all/applications/calendar?maxResults=2 answers the example.
func anchors() ([]record, error) {
	alice, carol := userByEmail("alice@example.com"), userByEmail("carol@example.com")
	out := []record{
		{user: alice, act: activity{
			ID:        activityID{Time: "2026-11-20T14:03:11.482Z", UniqueQualifier: "-8675309123456789"},
			Etag:      `"p0Q1vN4r8s2"`,
			IPAddress: "203.0.113.5",
			Events: []event{{Type: "calendar_change", Name: "change_calendar_acls", Parameters: []parameter{
				str("api_kind", "web"),
				str("calendar_id", "alice@example.com"),
				str("user_agent", agentChromeLinux),
				str("grantee_email", "bob@example.com"),
				str("access_level", "read"),
			}}},
		}},
		{user: carol, act: activity{
			ID:        activityID{Time: "2026-11-20T09:41:27.015Z", UniqueQualifier: "4521983374650012871"},
			Etag:      `"Zc7mW1x0dE5"`,
			IPAddress: "198.51.100.24",
			Events: []event{{Type: "appointment_schedule_change", Name: "create_appointment_schedule", Parameters: []parameter{
				str("api_kind", "web"),
				str("calendar_id", "carol@example.com"),
				str("user_agent", agentSafariMac),
				str("appointment_schedule_title", "Office hours"),
				str("client_side_encrypted", "no"),
				str("event_id", "5p7q2nbk3f0e8m1c9s4d6a7h2g"),
				boolean("is_recurring", true),
				str("organizer_calendar_id", "carol@example.com"),
				str("recurring", "yes"),
				{Name: "start_time", IntValue: "63931107600"},
				{Name: "end_time", IntValue: "63931109400"},
			}}},
		}},
	}
	for i := range out {
		r := &out[i]
		at, err := time.Parse(time.RFC3339Nano, r.act.ID.Time)
		if err != nil {
			return nil, fmt.Errorf("anchor %d: %w", i, err)
		}
		r.at = at
		if _, err := fmt.Sscan(r.act.ID.UniqueQualifier, &r.uq); err != nil {
			return nil, fmt.Errorf("anchor %d: uniqueQualifier: %w", i, err)
		}
		r.act.Kind = kindActivity
		r.act.ID.ApplicationName = calendarApp
		r.act.ID.CustomerID = customerID
		r.act.Actor = actorOf(r.user)
		r.act.OwnerDomain = ownerDomain
	}
	return out, nil
}
