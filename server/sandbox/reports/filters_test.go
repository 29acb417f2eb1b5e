package reports

import (
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// paramValue returns a record's parameter value as text ("" when absent).
func paramValue(r *record, name string) (string, bool) {
	p, ok := r.param(name)
	switch {
	case !ok:
		return "", false
	case p.BoolValue != nil:
		return strconv.FormatBool(*p.BoolValue), true
	case p.IntValue != "":
		return p.IntValue, true
	}
	return p.Value, true
}

// intParam returns an integer parameter; ok is false when absent.
func intParam(r *record, name string) (int64, bool) {
	s, ok := paramValue(r, name)
	if !ok {
		return 0, false
	}
	n, _ := strconv.ParseInt(s, 10, 64)
	return n, true
}

// TestFilters: each filter parameter selects exactly the records its predicate describes,
// newest first, across every page.
func TestFilters(t *testing.T) {
	h := newTestHandler(t)
	at := func(s string) time.Time { tm, _ := time.Parse(time.RFC3339Nano, s); return tm }
	const users = "/admin/reports/v1/activity/users/"
	noon17 := at("2026-11-17T12:00:00Z").Unix() + 62135683200
	tests := []struct {
		name, target string
		keep         func(r *record) bool
	}{
		{"all", listPath, func(r *record) bool { return true }},
		{"userKey email", users + "bob@example.com/applications/calendar", func(r *record) bool { return r.act.Actor.Email == "bob@example.com" }},
		{"userKey profile ID", users + "110000000000000000003/applications/calendar", func(r *record) bool { return r.act.Actor.ProfileID == "110000000000000000003" }},
		{"userKey unknown user", users + "zed@example.com/applications/calendar", func(r *record) bool { return false }},
		{"userKey escaped", users + "alice%40example.com/applications/calendar", func(r *record) bool { return r.act.Actor.Email == "alice@example.com" }},
		{"eventName", listPath + "?eventName=change_calendar_acls", func(r *record) bool { return r.act.Events[0].Name == "change_calendar_acls" }},
		{"type", listPath + "?type=interop", func(r *record) bool { return r.act.Events[0].Type == "interop" }},
		{"type and eventName", listPath + "?type=interop&eventName=create_event", func(r *record) bool { return false }},
		{"startTime", listPath + "?startTime=2026-11-18T00:00:00Z", func(r *record) bool { return !r.at.Before(at("2026-11-18T00:00:00Z")) }},
		{"endTime", listPath + "?endTime=2026-11-08T00:00:00%2B01:00", func(r *record) bool { return !r.at.After(at("2026-11-07T23:00:00Z")) }},
		{"startTime and endTime inclusive", listPath + "?startTime=2026-11-20T09:41:27.015Z&endTime=2026-11-20T14:03:11.482Z", func(r *record) bool {
			return !r.at.Before(at("2026-11-20T09:41:27.015Z")) && !r.at.After(at("2026-11-20T14:03:11.482Z"))
		}},
		{"actorIpAddress", listPath + "?actorIpAddress=203.0.113.5", func(r *record) bool { return r.act.IPAddress == "203.0.113.5" }},
		{"actorIpAddress IPv6", listPath + "?actorIpAddress=2001:db8:0:0::5", func(r *record) bool { return r.act.IPAddress == "2001:db8::5" }},
		{"actorIpAddress external server", listPath + "?actorIpAddress=" + externalServerIP, func(r *record) bool { return r.act.IPAddress == externalServerIP }},
		{"customerId my_customer", listPath + "?customerId=my_customer", func(r *record) bool { return true }},
		{"customerId own", listPath + "?customerId=C03az79cb", func(r *record) bool { return true }},
		{"customerId other", listPath + "?customerId=C0other", func(r *record) bool { return false }},
		{"other application", users + "all/applications/drive", func(r *record) bool { return false }},
		{"orgUnitID", listPath + "?orgUnitID=id:" + orgSales, func(r *record) bool { return r.user != nil && r.user.orgUnit == orgSales }},
		{"orgUnitID unknown", listPath + "?orgUnitID=id:nope", func(r *record) bool { return false }},
		{"groupIdFilter", listPath + "?groupIdFilter=id:" + groupCalendar, func(r *record) bool {
			return r.user != nil && (r.user.email == "alice@example.com" || r.user.email == "bob@example.com")
		}},
		{"groupIdFilter two", listPath + "?groupIdFilter=id:" + groupCalendar + ",id:" + groupSupport, func(r *record) bool {
			return r.user != nil && r.user.email != "dave@example.com" && r.user.email != "frank@example.com"
		}},
		{"filters ==", listPath + "?eventName=change_calendar_acls&filters=access_level==owner", func(r *record) bool {
			v, _ := paramValue(r, "access_level")
			return r.act.Events[0].Name == "change_calendar_acls" && v == "owner"
		}},
		{"filters <>", listPath + "?eventName=change_calendar_acls&filters=" + url.QueryEscape("access_level<>owner"), func(r *record) bool {
			v, _ := paramValue(r, "access_level")
			return r.act.Events[0].Name == "change_calendar_acls" && v != "owner"
		}},
		{"filters on parameters other events lack", listPath + "?filters=access_level==owner", func(r *record) bool {
			v, ok := paramValue(r, "access_level")
			return !ok || v == "owner"
		}},
		{"filters integer >=", listPath + "?filters=" + url.QueryEscape("start_time>="+strconv.FormatInt(noon17, 10)), func(r *record) bool {
			n, ok := intParam(r, "start_time")
			return !ok || n >= noon17
		}},
		{"filters integer < and boolean", listPath + "?filters=" + url.QueryEscape("start_time<"+strconv.FormatInt(noon17, 10)+",is_recurring==true"), func(r *record) bool {
			n, ok := intParam(r, "start_time")
			b, okb := paramValue(r, "is_recurring")
			return (!ok || n < noon17) && (!okb || b == "true")
		}},
		{"filters string >", listPath + "?eventName=change_calendar_country&filters=" + url.QueryEscape("calendar_country>DE"), func(r *record) bool {
			v, _ := paramValue(r, "calendar_country")
			return r.act.Events[0].Name == "change_calendar_country" && v > "DE"
		}},
		{"filters string <= of two parameters", listPath + "?filters=" + url.QueryEscape("calendar_timezone<=Europe/Berlin,api_kind==web"), func(r *record) bool {
			tz, okTZ := paramValue(r, "calendar_timezone")
			kind, okKind := paramValue(r, "api_kind")
			return (!okTZ || tz <= "Europe/Berlin") && (!okKind || kind == "web")
		}},
		{"filters repeated keeps the last", listPath + "?eventName=change_calendar_acls&filters=access_level==owner,access_level==read", func(r *record) bool {
			v, _ := paramValue(r, "access_level")
			return r.act.Events[0].Name == "change_calendar_acls" && v == "read"
		}},
		{"filters unknown parameter ignored", listPath + "?filters=doc_id==x", func(r *record) bool { return true }},
		{"everything together", users + "alice@example.com/applications/calendar?type=event_change&startTime=2026-11-10T00:00:00Z&endTime=2026-11-19T00:00:00Z&orgUnitID=id:" + orgEngineering, func(r *record) bool {
			return r.act.Actor.Email == "alice@example.com" && r.act.Events[0].Type == "event_change" &&
				!r.at.Before(at("2026-11-10T00:00:00Z")) && !r.at.After(at("2026-11-19T00:00:00Z"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := matching(h, tt.keep)
			for _, maxResults := range []string{"", "7"} {
				target := tt.target
				if maxResults != "" {
					target += map[bool]string{true: "&", false: "?"}[containsQuery(target)] + "maxResults=" + maxResults
				}
				got := qualifiers(listAll(t, h, target))
				if want == nil {
					want = []string{}
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("GET %s: got %d records %v; want %d %v", target, len(got), got, len(want), want)
				}
			}
		})
	}
}

// TestFiltersSelect: the filters of TestFilters that should select something do, so the
// comparisons there are not between two empty lists.
func TestFiltersSelect(t *testing.T) {
	h := newTestHandler(t)
	for _, target := range []string{
		"?eventName=change_calendar_acls&filters=access_level==owner",
		"?eventName=change_calendar_country&filters=" + url.QueryEscape("calendar_country>DE"),
		"?eventName=change_calendar_timezone&filters=" + url.QueryEscape("calendar_timezone<=Europe/Berlin"),
		"?eventName=change_calendar_acls&filters=access_level==read,access_level==owner",
		"?actorIpAddress=2001:db8::5",
		"?actorIpAddress=" + externalServerIP,
		"?type=interop",
		"?orgUnitID=id:" + orgSales,
		"?startTime=2026-11-20T09:41:27.015Z&endTime=2026-11-20T14:03:11.482Z",
	} {
		if got := len(listAll(t, h, listPath+target)); got == 0 {
			t.Errorf("GET %s: got no records; want some", target)
		}
	}
	if got, want := len(listAll(t, h, listPath+"?startTime=2026-11-20T09:41:27.015Z&endTime=2026-11-20T14:03:11.482Z")), 2; got != want {
		t.Errorf("bounds are inclusive: got %d records; want %d", got, want)
	}
}

// TestSplitTerm reads the operator of a filters term.
func TestSplitTerm(t *testing.T) {
	tests := []struct {
		term, name, op, value string
		ok                    bool
	}{
		{"a==b", "a", "==", "b", true},
		{"a<>b", "a", "<>", "b", true},
		{"a<=5", "a", "<=", "5", true},
		{"a>=5", "a", ">=", "5", true},
		{"a<5", "a", "<", "5", true},
		{"a>5", "a", ">", "5", true},
		{"a==b==c", "a", "==", "b==c", true},
		{"a==", "a", "==", "", true},
		{"==b", "", "", "", false},
		{"a=b", "", "", "", false},
		{"ab", "", "", "", false},
	}
	for _, tt := range tests {
		name, op, value, ok := splitTerm(tt.term)
		if name != tt.name || op != tt.op || value != tt.value || ok != tt.ok {
			t.Errorf("splitTerm(%q): got %q %q %q %v; want %q %q %q %v", tt.term, name, op, value, ok, tt.name, tt.op, tt.value, tt.ok)
		}
	}
}

// TestRetention: the dataset covers the 180 days of the real API's retention; a startTime
// before them counts from their start, and a range wholly before them is the real API's 400.
func TestRetention(t *testing.T) {
	h := newTestHandler(t)
	all := list(t, h, listPath+"?maxResults=1000")
	old := list(t, h, listPath+"?maxResults=1000&startTime=2025-01-01T00:00:00Z")
	if len(old.Items) != len(all.Items) || old.NextPageToken != all.NextPageToken {
		t.Errorf("startTime before the retention: got %d items; want the same %d as without it", len(old.Items), len(all.Items))
	}
	w := serve(t, h, withToken(listPath+"?startTime=2025-01-01T00:00:00Z&endTime=2025-06-01T00:00:00Z"), nil)
	want := `{"error":{"code":400,"message":"Invalid request: Start time is after end time.","errors":[{"message":"Invalid request: Start time is after end time.","domain":"global","reason":"invalid"}],"status":"INVALID_ARGUMENT"}}`
	if w.Code != 400 || strings.TrimSpace(w.Body.String()) != want {
		t.Errorf("a range before the retention: got %d %s; want 400 %s", w.Code, w.Body, want)
	}
}
