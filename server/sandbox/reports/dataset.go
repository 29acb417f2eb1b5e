package reports

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The generated part of the dataset: generatedCount records between windowStart and
// windowEnd, older than the documented ones (anchors), from a fixed seed. The window is the
// real API's retention: the 180 days before the dataset's end.
const (
	generatedCount = 2400
	retentionDays  = 180
	datasetSeed    = 0x5eed_ca1e_da12
)

var (
	windowEnd   = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	windowStart = windowEnd.AddDate(0, 0, -retentionDays)
)

// rng is splitmix64: small, fast and the same on every platform and Go version, so the
// dataset never changes under a toolchain upgrade.
type rng struct{ state uint64 }

// next returns the next 64 random bits.
func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// pick returns a random element of s.
func pick[T any](r *rng, s []T) T { return s[r.intn(len(s))] }

// buildDataset returns every record, newest first: the documented ones, then generatedCount
// records that cover every event of the catalogue.
func buildDataset(c *catalog) ([]record, error) {
	out, err := anchors()
	if err != nil {
		return nil, fmt.Errorf("the documented records: %w", err)
	}
	seen := make(map[int64]bool, generatedCount+len(out))
	for _, r := range out {
		seen[r.uq] = true
	}
	g := &rng{state: datasetSeed}
	span := windowEnd.Sub(windowStart).Milliseconds()
	for i := range generatedCount {
		def := &c.events[i%len(c.events)] // every event at least once...
		if i >= len(c.events) {
			def = &c.events[g.intn(len(c.events))] // ...then at random
		}
		at := windowStart.Add(time.Duration(g.intn(int(span))) * time.Millisecond)
		uq := int64(g.next())
		for seen[uq] {
			uq = int64(g.next())
		}
		seen[uq] = true
		r, err := generate(c, g, def, at, uq)
		if err != nil {
			return nil, fmt.Errorf("generating record %d (%s): %w", i, def.Name, err)
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b record) int { return compareNewestFirst(a.at, a.uq, b.at, b.uq) })
	return out, nil
}

// compareNewestFirst orders records by time, then unique qualifier, both descending.
func compareNewestFirst(at time.Time, auq int64, bt time.Time, buq int64) int {
	if c := bt.Compare(at); c != 0 {
		return c
	}
	switch {
	case auq > buq:
		return -1
	case auq < buq:
		return 1
	}
	return 0
}

// generate makes one record of the event def at time at.
func generate(c *catalog, g *rng, def *eventDef, at time.Time, uq int64) (record, error) {
	interop := def.Group == "interop"
	u := pick(g, users)
	if !interop && g.intn(20) == 0 {
		u = nil // now and then an application acting with an OAuth client
	}
	r := record{at: at, uq: uq, user: u}
	r.act = activity{
		Kind: kindActivity,
		ID: activityID{
			Time:            at.Format(timeLayout),
			UniqueQualifier: strconv.FormatInt(uq, 10),
			ApplicationName: calendarApp,
			CustomerID:      customerID,
		},
		Etag:        etagOf(uq),
		Actor:       actorOf(u),
		OwnerDomain: ownerDomain,
	}
	switch {
	case u == nil:
		r.act.IPAddress = keyCallerIP
	case interop && !slices.Contains(def.Parameters, "remote_ews_url"):
		r.act.IPAddress = externalServerIP // inbound: the external server calls in
	default:
		r.act.IPAddress = u.ips[g.intn(4)%len(u.ips)] // mostly the usual address
	}
	v := &valuer{c: c, g: g, u: u, at: at, event: def}
	// Values that others depend on first: api_kind decides user_agent, recurring is_recurring,
	// event_title old_event_title.
	values := make(map[string]parameter, len(def.Parameters))
	for _, name := range append([]string{"api_kind", "recurring", "event_title"}, def.Parameters...) {
		if _, done := values[name]; done || !slices.Contains(def.Parameters, name) {
			continue
		}
		p, err := v.param(name)
		if err != nil {
			return record{}, err
		}
		values[name] = p
	}
	ev := event{Type: def.Group, Name: def.Name}
	for _, name := range orderParams(c, def.Parameters) {
		ev.Parameters = append(ev.Parameters, values[name])
	}
	r.act.Events = []event{ev}
	return r, nil
}

// orderParams puts the shared parameters (api_kind, calendar_id, user_agent) first, as in the
// documented example, then the event's own in catalogue order, each end right after its start.
func orderParams(c *catalog, names []string) []string {
	var shared, own []string
	for _, n := range names {
		switch {
		case c.params[n].Shared:
			shared = append(shared, n)
		case (n == "end_time" || n == "requested_period_end") && slices.Contains(names, strings.Replace(n, "end", "start", 1)):
			// placed right after its start below
		default:
			own = append(own, n)
			if end := strings.Replace(n, "start", "end", 1); end != n && slices.Contains(names, end) {
				own = append(own, end)
			}
		}
	}
	return append(shared, own...)
}

// etagOf derives a record's etag from its unique qualifier.
func etagOf(uq int64) string {
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-"
	x := &rng{state: uint64(uq)}
	b := make([]byte, 11)
	for i := range b {
		b[i] = digits[x.next()%uint64(len(digits))]
	}
	return `"` + string(b) + `"`
}
