package reports

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCatalog: the catalogue read from the document has the documented 38 events and 32
// parameters, and every console message names only the event's parameters or placeholders.
func TestCatalog(t *testing.T) {
	c := newTestHandler(t).cat
	if got, want := len(c.events), 38; got != want {
		t.Errorf("events: got %d; want %d", got, want)
	}
	if got, want := len(c.params), 32; got != want {
		t.Errorf("parameters: got %d; want %d", got, want)
	}
	if got, want := len(c.groups), 6; got != want {
		t.Errorf("groups: got %d; want %d", got, want)
	}
	for _, e := range c.events {
		for rest := e.Message; ; {
			_, after, ok := strings.Cut(rest, "{")
			if !ok {
				break
			}
			name, tail, _ := strings.Cut(after, "}")
			rest = tail
			if name != "actor" && name != "IP_ADDRESS_IDENTIFIER" && !slices.Contains(e.Parameters, name) {
				t.Errorf("%s: the message names {%s}, which is not a parameter of the event", e.Name, name)
			}
		}
	}
}

// TestDatasetValid: every record is well formed and every parameter has the documented type
// and an allowed value.
func TestDatasetValid(t *testing.T) {
	h := newTestHandler(t)
	c := h.cat
	if got := len(h.records); got < 2000 || got > 3000 {
		t.Errorf("records: got %d; want a real-size few thousand", got)
	}
	// They span the real API's 180-day retention.
	oldest, newest := h.records[len(h.records)-1].at, h.records[0].at
	if span := newest.Sub(oldest); span < 179*24*time.Hour || oldest.Before(windowStart) {
		t.Errorf("records from %s to %s; want the 180 days from %s", oldest, newest, windowStart)
	}
	seenEvent := map[string]bool{}
	seenUQ := map[string]bool{}
	for i := range h.records {
		r := &h.records[i]
		a := r.act
		where := a.ID.UniqueQualifier
		if a.Kind != kindActivity || a.ID.ApplicationName != calendarApp || a.ID.CustomerID != customerID || a.OwnerDomain != ownerDomain {
			t.Errorf("%s: envelope %+v; want kind, calendar, %s, %s", where, a, customerID, ownerDomain)
		}
		if seenUQ[where] {
			t.Errorf("%s: unique qualifier used twice", where)
		}
		seenUQ[where] = true
		if tm, err := time.Parse(time.RFC3339Nano, a.ID.Time); err != nil || !tm.Equal(r.at) || a.ID.Time != r.at.UTC().Format(timeLayout) {
			t.Errorf("%s: time %q; want %s in RFC 3339 with milliseconds", where, a.ID.Time, r.at.Format(timeLayout))
		}
		if i > 0 && compareNewestFirst(h.records[i-1].at, h.records[i-1].uq, r.at, r.uq) >= 0 {
			t.Errorf("%s: not older than the record before it", where)
		}
		if (a.Actor.CallerType == "USER") != (r.user != nil) || (r.user == nil && a.Actor.Key == "") {
			t.Errorf("%s: actor %+v", where, a.Actor)
		}
		if len(a.Events) != 1 {
			t.Fatalf("%s: got %d events; want 1", where, len(a.Events))
		}
		ev := a.Events[0]
		def, ok := c.byName[ev.Name]
		if !ok || def.Group != ev.Type {
			t.Errorf("%s: event %s of type %s is not in the catalogue", where, ev.Name, ev.Type)
			continue
		}
		seenEvent[ev.Name] = true
		var names []string
		for _, p := range ev.Parameters {
			names = append(names, p.Name)
			checkParam(t, where+" "+ev.Name, c.params[p.Name], p)
		}
		if got, want := sorted(names), sorted(def.Parameters); !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s: parameters %v; want %v", where, ev.Name, got, want)
		}
		checkConsistency(t, where, r)
	}
	for _, e := range c.events {
		if !seenEvent[e.Name] {
			t.Errorf("no record of the event %s", e.Name)
		}
	}
}

// checkParam checks one parameter against its catalogue definition.
func checkParam(t *testing.T, where string, def paramDef, p parameter) {
	t.Helper()
	set := 0
	for _, b := range []bool{p.Value != "", p.IntValue != "", p.BoolValue != nil} {
		if b {
			set++
		}
	}
	if set != 1 {
		t.Errorf("%s: %s has %d values; want exactly 1", where, p.Name, set)
	}
	switch def.Type {
	case typeInteger:
		if _, err := strconv.ParseInt(p.IntValue, 10, 64); err != nil {
			t.Errorf("%s: %s intValue %q is not an int64", where, p.Name, p.IntValue)
		}
	case typeBoolean:
		if p.BoolValue == nil {
			t.Errorf("%s: %s has no boolValue", where, p.Name)
		}
	case typeString:
		if p.Value == "" || (len(def.Enum) > 0 && !slices.Contains(def.Enum, p.Value)) {
			t.Errorf("%s: %s value %q; want one of %v", where, p.Name, p.Value, def.Enum)
		}
	default:
		t.Errorf("%s: %s has no catalogue type", where, p.Name)
	}
}

// checkConsistency: start_time and end_time are Gregorian seconds of a future time, the end
// after the start; recurring and is_recurring agree; a changed title differs from the old.
func checkConsistency(t *testing.T, where string, r *record) {
	t.Helper()
	const offset = 62135683200 // documented: Gregorian seconds - 62135683200 = Unix seconds
	start, okS := intParam(r, "start_time")
	end, okE := intParam(r, "end_time")
	if okS {
		if s := time.Unix(start-offset, 0); s.Before(r.at) || s.After(r.at.Add(16*24*time.Hour)) {
			t.Errorf("%s: start_time %d is %s; want within two weeks after %s", where, start, s, r.at)
		}
	}
	if okS && okE && end <= start {
		t.Errorf("%s: end_time %d not after start_time %d", where, end, start)
	}
	if ps, ok := intParam(r, "requested_period_start"); ok {
		if pe, _ := intParam(r, "requested_period_end"); pe <= ps {
			t.Errorf("%s: requested period %d to %d", where, ps, pe)
		}
	}
	rec, okR := paramValue(r, "recurring")
	is, okI := paramValue(r, "is_recurring")
	if okR && okI && (rec == "yes") != (is == "true") {
		t.Errorf("%s: recurring %s but is_recurring %s", where, rec, is)
	}
	if old, ok := paramValue(r, "old_event_title"); ok {
		if title, _ := paramValue(r, "event_title"); title == old {
			t.Errorf("%s: old_event_title and event_title are both %q", where, title)
		}
	}
}

// sorted returns a sorted copy.
func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

// TestDatasetDeterministic: two builds are equal.
func TestDatasetDeterministic(t *testing.T) {
	a, b := newTestHandler(t), newTestHandler(t)
	if !reflect.DeepEqual(a.records, b.records) {
		t.Error("two builds of the dataset differ")
	}
	if got, want := a.records[2].act.ID.UniqueQualifier, "-5236580370388338281"; got != want {
		t.Errorf("third record: got %s; want %s (the dataset changed)", got, want)
	}
}
