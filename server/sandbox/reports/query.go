package reports

import (
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Bounds of maxResults, as documented.
const (
	minResults      = 1
	maxResultsLimit = 1000
	defaultResults  = 1000
)

// allUsers is the userKey of every user's records.
const allUsers = "all"

// dateTime is the real API's pattern of startTime and endTime.
var dateTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$`)

// customerPattern is the documented pattern of customerId.
var customerPattern = regexp.MustCompile(`^(C.+|my_customer)$`)

// profileID is the form of a profile ID userKey.
var profileID = regexp.MustCompile(`^\d+$`)

// query is a checked activities.list request.
type query struct {
	userKey    string
	app        string
	eventName  string
	group      string // type
	start, end time.Time
	ip         netip.Addr // actorIpAddress, invalid when absent
	customer   string     // resolved customerId: customerID, or another customer (no records)
	conds      []condition
	orgUnit    string
	groups     []string
	max        int
	after      *cursor
}

// parseQuery checks the path parameters and the query, in the order of the document.
func parseQuery(userKey, app string, v url.Values, c *catalog, now time.Time) (*query, *apiError) {
	q := &query{userKey: userKey, app: app, customer: customerID, max: defaultResults}
	if userKey != allUsers && !strings.Contains(userKey, "@") && !profileID.MatchString(userKey) {
		return nil, invalidParam("userKey", "Invalid userKey '%s': use all, a user's primary email address or a profile ID.", userKey)
	}
	if !slices.Contains(c.applications, app) {
		return nil, invalidParam("applicationName", "Invalid applicationName '%s'. Values must be one of: %s", app, oneOf(c.applications))
	}
	if s := v.Get("eventName"); s != "" {
		if _, ok := c.byName[s]; !ok && app == calendarApp {
			return nil, invalidParam("eventName", "Invalid eventName '%s': not a calendar event (see the eventName values of activities.list).", s)
		}
		q.eventName = s
	}
	if s := v.Get("type"); s != "" {
		if !c.groups[s] && app == calendarApp {
			return nil, invalidParam("type", "Invalid type '%s'. Values must be one of: %s", s, oneOf(sortedKeys(c.groups)))
		}
		q.group = s
	}
	if s := v.Get("maxResults"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < minResults || n > maxResultsLimit {
			return nil, outOfRange(s)
		}
		q.max = n
	}
	var e *apiError
	if q.start, e = parseTime(v, "startTime"); e != nil {
		return nil, e
	}
	if q.end, e = parseTime(v, "endTime"); e != nil {
		return nil, e
	}
	if !q.start.IsZero() && !q.start.Before(now) {
		return nil, invalidParam("startTime", "Invalid startTime '%s': the start time must be before the current time.", v.Get("startTime"))
	}
	if !q.start.IsZero() && q.start.Before(windowStart) {
		// The real API keeps 180 days: an older startTime counts from the retention's start,
		// and a range that then ends before it starts is refused with the real (if confusing)
		// message (googleapis/google-api-python-client#148).
		q.start = windowStart
		if !q.end.IsZero() && !q.start.Before(q.end) {
			return nil, newError(http.StatusBadRequest, "INVALID_ARGUMENT", "invalid", "Invalid request: Start time is after end time.")
		}
	}
	if !q.start.IsZero() && !q.end.IsZero() && !q.start.Before(q.end) {
		return nil, invalidParam("startTime", "Invalid startTime '%s': the start time must be before the end time '%s'.", v.Get("startTime"), v.Get("endTime"))
	}
	if s := v.Get("actorIpAddress"); s != "" {
		ip, err := netip.ParseAddr(s)
		if err != nil {
			return nil, invalidParam("actorIpAddress", "Invalid actorIpAddress '%s': want an IPv4 or IPv6 address.", s)
		}
		q.ip = ip.Unmap()
	}
	if s := v.Get("customerId"); s != "" {
		if !customerPattern.MatchString(s) {
			return nil, invalidParam("customerId", "Invalid value '%s'. Values must match the following regular expression: 'C.+|my_customer'", s)
		}
		if s != myCustomer {
			q.customer = s
		}
	}
	if q.conds, e = parseFilters(v.Get("filters"), c); e != nil {
		return nil, e
	}
	if s := v.Get("orgUnitID"); s != "" {
		ids, ok := parseIDs(s)
		if !ok || len(ids) != 1 {
			return nil, invalidParam("orgUnitID", "Invalid orgUnitID '%s': want id:<org unit ID>.", s)
		}
		q.orgUnit = ids[0]
	}
	if s := v.Get("groupIdFilter"); s != "" {
		ids, ok := parseIDs(s)
		if !ok {
			return nil, invalidParam("groupIdFilter", "Invalid groupIdFilter '%s': want id:<group ID>, comma-separated.", s)
		}
		q.groups = ids
	}
	if s := v.Get("pageToken"); s != "" {
		cur, ok := decodeToken(s, app)
		if !ok {
			return nil, invalidParam("pageToken", "Invalid pageToken '%s': send back the nextPageToken of the previous page unchanged, with the same parameters.", s)
		}
		q.after = &cur
	}
	return q, nil
}

// parseTime reads an RFC 3339 time parameter; zero when absent.
func parseTime(v url.Values, name string) (time.Time, *apiError) {
	s := v.Get(name)
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || !dateTime.MatchString(s) {
		return time.Time{}, invalidParam(name, "Invalid %s '%s': want an RFC 3339 date-time such as 2026-11-16T00:00:00Z.", name, s)
	}
	return t, nil
}

// parseIDs reads id:<a>,id:<b>,...
func parseIDs(s string) ([]string, bool) {
	var out []string
	for _, part := range strings.Split(s, ",") {
		id, ok := strings.CutPrefix(strings.TrimSpace(part), "id:")
		if !ok || id == "" {
			return nil, false
		}
		out = append(out, id)
	}
	return out, true
}

// sortedKeys lists a set's members in order.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// keep reports whether the record passes every filter of q (not the page position).
func (q *query) keep(r *record) bool {
	switch {
	case r.act.ID.ApplicationName != q.app, r.act.ID.CustomerID != q.customer, !r.matchesKey(q.userKey):
		return false
	case q.eventName != "" && r.act.Events[0].Name != q.eventName:
		return false
	case q.group != "" && r.act.Events[0].Type != q.group:
		return false
	case !q.start.IsZero() && r.at.Before(q.start), !q.end.IsZero() && r.at.After(q.end):
		return false
	case q.ip.IsValid() && !sameIP(r.act.IPAddress, q.ip):
		return false
	case q.orgUnit != "" && !r.inOrgUnit(q.orgUnit), q.groups != nil && !r.inAnyGroup(q.groups):
		return false
	}
	return r.matches(q.conds)
}

// sameIP compares an address of the dataset with a requested one.
func sameIP(s string, ip netip.Addr) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Unmap() == ip
}
