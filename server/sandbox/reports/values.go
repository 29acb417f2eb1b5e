package reports

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Values the generated parameters draw from.
var (
	countries    = []string{"US", "DE", "FR", "GB", "JP", "BR", "IN", "CA"}
	timezones    = []string{"America/New_York", "Europe/Berlin", "Europe/London", "Asia/Tokyo", "America/Los_Angeles", "Australia/Sydney"}
	locations    = []string{"Building 40, floor 2", "Berlin office", "Remote", "Conference room Ada", "Main campus"}
	descriptions = []string{"Team availability and on-call rotation", "Customer meetings", "Release planning", "Shared holidays"}
	calTitles    = []string{"Team calendar", "On-call", "Release train", "Holidays", "Customer visits", "Hiring"}
	eventTitles  = []string{"Weekly sync", "Design review", "1:1", "Sprint planning", "Customer call", "Retrospective", "Lunch and learn", "Quarterly review"}
	schedules    = []string{"Office hours", "Interview slots", "Support clinic", "Mentoring sessions"}
	responses    = []string{"accepted", "declined", "tentative"}
	agentsByKind = map[string]string{"android": agentAndroid, "ios": agentIOS, "api_v3": agentAPIClient, "caldav": "DAVx5/4.4.2-ose (2024/10/01; dav4jvm; okhttp/4.12.0) Android/15", "gdata": agentAPIClient}
	errorsOK     = []string{"OK"}
	errorsFailed = []string{"Connection timed out", "The remote server returned an error: (401) Unauthorized.", "The remote server returned an error: (503) Server Unavailable.", "Mailbox not found"}
)

// remoteEWS is the external server's EWS endpoint (remote_ews_url).
const remoteEWS = "https://mail.partner.example/EWS/Exchange.asmx"

// valuer makes the parameter values of one generated record, consistent with each other:
// api_kind decides user_agent, recurring decides is_recurring, start_time precedes end_time.
type valuer struct {
	c     *catalog
	g     *rng
	u     *user // nil for a KEY caller
	at    time.Time
	event *eventDef
	kind  string    // api_kind, once chosen
	rec   string    // recurring, once chosen
	title string    // event_title, once chosen
	start time.Time // start of the event or window, once chosen
}

// param returns the parameter name typed as the catalogue says.
func (v *valuer) param(name string) (parameter, error) {
	def := v.c.params[name]
	raw := v.raw(name, def)
	switch def.Type {
	case typeInteger:
		if _, err := strconv.ParseInt(raw, 10, 64); err != nil {
			return parameter{}, fmt.Errorf("parameter %s: %q is not an integer", name, raw)
		}
		return parameter{Name: name, IntValue: raw}, nil
	case typeBoolean:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return parameter{}, fmt.Errorf("parameter %s: %q is not a boolean", name, raw)
		}
		return boolean(name, b), nil
	}
	if len(def.Enum) > 0 && !slices.Contains(def.Enum, raw) {
		return parameter{}, fmt.Errorf("parameter %s: %q is not one of %v", name, raw, def.Enum)
	}
	return str(name, raw), nil
}

// raw returns the value of name as a string.
func (v *valuer) raw(name string, def paramDef) string {
	g := v.g
	switch name {
	case "api_kind":
		v.kind = v.apiKind(def.Enum)
		return v.kind
	case "user_agent":
		if a, ok := agentsByKind[v.kind]; ok {
			return a
		}
		if v.u == nil {
			return agentAPIClient
		}
		return v.u.agent
	case "calendar_id", "organizer_calendar_id":
		if v.u == nil {
			return pick(g, users).email
		}
		return v.u.email
	case "grantee_email", "recipient_email", "event_guest", "subscriber_calendar_id", "target_calendar_id":
		return v.other().email
	case "calendar_country":
		return pick(g, countries)
	case "calendar_description":
		return pick(g, descriptions)
	case "calendar_location":
		return pick(g, locations)
	case "calendar_timezone":
		return pick(g, timezones)
	case "calendar_title":
		return pick(g, calTitles)
	case "event_title":
		v.title = pick(g, eventTitles)
		return v.title
	case "old_event_title": // differs from the new title
		for {
			if t := pick(g, eventTitles); t != v.title {
				return t
			}
		}
	case "appointment_schedule_title":
		return pick(g, schedules)
	case "event_response_status":
		return pick(g, responses)
	case "event_id":
		return v.id(26)
	case "notification_message_id":
		return "<" + v.id(20) + "@calendar.google.com>"
	case "remote_ews_url":
		return remoteEWS
	case "interop_error_code":
		if strings.HasSuffix(v.event.Name, "_unsuccessful") {
			return pick(g, errorsFailed)
		}
		return pick(g, errorsOK)
	case "recurring":
		v.rec = pick(g, def.Enum)
		return v.rec
	case "is_recurring":
		return strconv.FormatBool(v.rec == "yes" || (v.rec == "" && g.intn(3) == 0))
	case "start_time", "requested_period_start":
		return v.gregorian(def, v.startAt())
	case "end_time", "requested_period_end":
		return v.gregorian(def, v.startAt().Add(time.Duration(1+g.intn(4))*30*time.Minute))
	}
	switch {
	case len(def.Enum) > 0:
		return pick(g, def.Enum)
	case def.Type == typeInteger:
		return strconv.Itoa(g.intn(1000))
	case def.Type == typeBoolean:
		return strconv.FormatBool(g.intn(2) == 0)
	}
	return name + "-" + v.id(6) // a parameter added to the catalogue later
}

// apiKind chooses where the request came from: ews for interop, api_v3 for a KEY caller,
// otherwise mostly web.
func (v *valuer) apiKind(enum []string) string {
	want := "web"
	switch {
	case v.event.Group == "interop":
		want = "ews"
	case v.u == nil:
		want = "api_v3"
	case v.g.intn(3) == 0:
		want = pick(v.g, enum)
		if want == "ews" {
			want = "web"
		}
	}
	if !slices.Contains(enum, want) {
		return enum[0]
	}
	return want
}

// startAt is the start of the record's event or requested window: on the half hour, one to
// fourteen days after the record.
func (v *valuer) startAt() time.Time {
	if v.start.IsZero() {
		day := v.at.Truncate(24 * time.Hour).Add(time.Duration(1+v.g.intn(14)) * 24 * time.Hour)
		v.start = day.Add(time.Duration(14+v.g.intn(18)) * 30 * time.Minute) // 07:00 to 15:30
	}
	return v.start
}

// gregorian writes t as the catalogue says: Gregorian seconds (Unix seconds plus the
// documented offset) for start_time and end_time, Unix seconds otherwise.
func (v *valuer) gregorian(def paramDef, t time.Time) string {
	if def.GregorianSeconds {
		return strconv.FormatInt(t.Unix()+def.UnixOffset, 10)
	}
	return strconv.FormatInt(t.Unix(), 10)
}

// other returns a user other than the actor.
func (v *valuer) other() *user {
	for {
		if o := pick(v.g, users); o != v.u {
			return o
		}
	}
}

// id returns n random characters of base32hex, like calendar event IDs.
func (v *valuer) id(n int) string {
	const digits = "0123456789abcdefghijklmnopqrstuv"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[v.g.intn(len(digits))]
	}
	return string(b)
}
