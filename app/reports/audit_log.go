package reports

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"
)

// auditEventDef is one event of an audit catalogue (x-loupe-events): its name, group,
// parameters and console message template.
type auditEventDef struct {
	Name       string   `json:"name"`
	Group      string   `json:"group"`
	Parameters []string `json:"parameters"`
	Message    string   `json:"message"`
}

// auditParamDef is what the catalogue says of a parameter (x-loupe-event-parameters): a
// Gregorian-seconds integer has the offset that turns it into Unix seconds.
type auditParamDef struct {
	Type             string `json:"type"`
	GregorianSeconds bool   `json:"gregorianSeconds"`
	UnixOffset       int64  `json:"unixOffset"`
}

// auditCatalog is an operation's event catalogue.
type auditCatalog struct {
	events map[string]auditEventDef
	order  []auditEventDef // as the document lists them
	groups []string        // in the document's order of first use
	params map[string]auditParamDef
}

// readAuditCatalog decodes the catalogue from an operation's extensions; missing parts stay
// empty (the viewer then shows records without sentences).
func readAuditCatalog(ext map[string]json.RawMessage) auditCatalog {
	c := auditCatalog{events: map[string]auditEventDef{}, params: map[string]auditParamDef{}}
	_ = json.Unmarshal(ext["x-loupe-events"], &c.order)
	_ = json.Unmarshal(ext["x-loupe-event-parameters"], &c.params)
	seen := map[string]bool{}
	for _, e := range c.order {
		c.events[e.Name] = e
		if !seen[e.Group] {
			seen[e.Group] = true
			c.groups = append(c.groups, e.Group)
		}
	}
	return c
}

// auditRecord is one activity record of the list, with the fields the console shows.
type auditRecord struct {
	ID struct {
		Time string `json:"time"`
	} `json:"id"`
	Actor struct {
		CallerType string `json:"callerType"`
		Email      string `json:"email"`
		Key        string `json:"key"`
	} `json:"actor"`
	IPAddress string       `json:"ipAddress"`
	Events    []auditEvent `json:"events"`
	raw       json.RawMessage
	at        time.Time
}

// auditEvent is one event of a record.
type auditEvent struct {
	Type       string       `json:"type"`
	Name       string       `json:"name"`
	Parameters []auditParam `json:"parameters"`
}

// auditParam is one parameter: one of its value fields is set.
type auditParam struct {
	Name       string   `json:"name"`
	Value      *string  `json:"value"`
	IntValue   *string  `json:"intValue"`
	BoolValue  *bool    `json:"boolValue"`
	MultiValue []string `json:"multiValue"`
}

// text is the parameter's value as the console writes it.
func (p auditParam) text() string {
	switch {
	case p.Value != nil:
		return *p.Value
	case p.IntValue != nil:
		return *p.IntValue
	case p.BoolValue != nil:
		return strconv.FormatBool(*p.BoolValue)
	}
	return strings.Join(p.MultiValue, ", ")
}

// parseAuditRecords decodes the items of an activity list, keeping each record's JSON.
func parseAuditRecords(body []byte) ([]auditRecord, bool) {
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, false
	}
	out := make([]auditRecord, 0, len(list.Items))
	for _, raw := range list.Items {
		var r auditRecord
		if json.Unmarshal(raw, &r) != nil {
			continue
		}
		r.raw = raw
		r.at, _ = time.Parse(time.RFC3339Nano, r.ID.Time)
		out = append(out, r)
	}
	return out, true
}

// actorName is who the sentence names: the actor's email, or an OAuth client's key.
func (r auditRecord) actorName() string {
	if r.Actor.Email != "" {
		return r.Actor.Email
	}
	if r.Actor.Key != "" {
		return r.Actor.Key
	}
	return "Someone"
}

// sentence fills an event's console template: {actor} with the actor, {IP_ADDRESS_IDENTIFIER}
// with the record's IP address, every other {name} with that parameter's value (a Gregorian
// time as a date). A template the catalogue lacks gives "<actor> <event name>".
func (c auditCatalog) sentence(r auditRecord, e auditEvent) string {
	def, ok := c.events[e.Name]
	if !ok || def.Message == "" {
		return r.actorName() + " " + strings.ReplaceAll(e.Name, "_", " ")
	}
	vals := map[string]string{"actor": r.actorName(), "IP_ADDRESS_IDENTIFIER": r.IPAddress}
	for _, p := range e.Parameters {
		vals[p.Name] = c.display(p)
	}
	var b strings.Builder
	msg := def.Message
	for {
		i := strings.IndexByte(msg, '{')
		j := strings.IndexByte(msg[max(i, 0):], '}')
		if i < 0 || j < 0 {
			b.WriteString(msg)
			return b.String()
		}
		name := msg[i+1 : i+j]
		b.WriteString(msg[:i])
		if v, ok := vals[name]; ok && v != "" {
			b.WriteString(v)
		} else {
			b.WriteString("(no " + name + ")")
		}
		msg = msg[i+j+1:]
	}
}

// display is a parameter's value for people: a Gregorian-seconds time as a UTC date.
func (c auditCatalog) display(p auditParam) string {
	if t, ok := c.gregorian(p); ok {
		return t.Format("Mon 2 Jan 2006 15:04 UTC")
	}
	return p.text()
}

// gregorian converts a Gregorian-seconds parameter to a time.
func (c auditCatalog) gregorian(p auditParam) (time.Time, bool) {
	def := c.params[p.Name]
	if !def.GregorianSeconds || p.IntValue == nil {
		return time.Time{}, false
	}
	n, err := strconv.ParseInt(*p.IntValue, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(n-def.UnixOffset, 0).UTC(), true
}

// auditDay is the records of one day (UTC), newest first.
type auditDay struct {
	day     string // 2006-01-02
	records []auditRecord
}

// byDay groups records by their UTC day, days newest first, keeping each day's order.
func byDay(records []auditRecord) []auditDay {
	idx := map[string]int{}
	var out []auditDay
	for _, r := range records {
		d := r.at.UTC().Format("2006-01-02")
		i, ok := idx[d]
		if !ok {
			i = len(out)
			idx[d] = i
			out = append(out, auditDay{day: d})
		}
		out[i].records = append(out[i].records, r)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].day > out[b].day })
	return out
}
