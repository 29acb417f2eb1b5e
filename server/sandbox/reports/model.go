package reports

import "time"

// Resource kinds of the response bodies.
const (
	kindActivities = "admin#reports#activities"
	kindActivity   = "admin#reports#activity"
)

// timeLayout is how id.time is written: RFC 3339 in UTC with milliseconds, like the real API.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// activities is the body of a page (the Activities schema).
type activities struct {
	Kind          string     `json:"kind"`
	Etag          string     `json:"etag"`
	Items         []activity `json:"items"`
	NextPageToken string     `json:"nextPageToken,omitempty"`
}

// activity is one audit record (the Activity schema).
type activity struct {
	Kind        string     `json:"kind"`
	ID          activityID `json:"id"`
	Etag        string     `json:"etag"`
	Actor       actor      `json:"actor"`
	OwnerDomain string     `json:"ownerDomain,omitempty"`
	IPAddress   string     `json:"ipAddress,omitempty"`
	Events      []event    `json:"events"`
}

// activityID identifies a record (the ActivityId schema).
type activityID struct {
	Time            string `json:"time"`
	UniqueQualifier string `json:"uniqueQualifier"`
	ApplicationName string `json:"applicationName"`
	CustomerID      string `json:"customerId"`
}

// actor is who performed the action (the Actor schema).
type actor struct {
	CallerType string `json:"callerType"`
	Email      string `json:"email,omitempty"`
	ProfileID  string `json:"profileId,omitempty"`
	Key        string `json:"key,omitempty"`
}

// event is one event of a record (the ActivityEvent schema).
type event struct {
	Type       string      `json:"type"`
	Name       string      `json:"name"`
	Parameters []parameter `json:"parameters"`
}

// parameter is one event parameter with exactly one typed value (the EventParameter schema).
// Calendar events use only value, intValue and boolValue.
type parameter struct {
	Name      string `json:"name"`
	Value     string `json:"value,omitempty"`
	IntValue  string `json:"intValue,omitempty"`
	BoolValue *bool  `json:"boolValue,omitempty"`
}

// record is an activity of the dataset with what the filters need in typed form.
type record struct {
	act  activity
	at   time.Time // id.time
	uq   int64     // id.uniqueQualifier
	user *user     // the acting user; nil for a KEY caller
}

// param returns the named parameter of the record's (only) event.
func (r *record) param(name string) (parameter, bool) {
	for _, p := range r.act.Events[0].Parameters {
		if p.Name == name {
			return p, true
		}
	}
	return parameter{}, false
}

// str returns a string parameter.
func str(name, v string) parameter { return parameter{Name: name, Value: v} }

// boolean returns a boolean parameter.
func boolean(name string, v bool) parameter { return parameter{Name: name, BoolValue: &v} }
