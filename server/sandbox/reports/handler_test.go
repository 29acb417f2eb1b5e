package reports

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"

	"loupe/content"
)

// TestCredentials: the token is accepted in access_token and as a bearer token; anything else
// gets the documented 401.
func TestCredentials(t *testing.T) {
	h := newTestHandler(t)
	tests := []struct {
		name, target string
		header       http.Header
		want         int
	}{
		{"query", listPath + "?access_token=" + testKey, nil, 200},
		{"bearer", listPath, http.Header{"Authorization": {"Bearer " + testKey}}, 200},
		{"bearer lower case", listPath, http.Header{"Authorization": {"bearer " + testKey}}, 200},
		{"none", listPath, nil, 401},
		{"empty query", listPath + "?access_token=", nil, 401},
		{"wrong query", listPath + "?access_token=nope", nil, 401},
		{"wrong query beats bearer", listPath + "?access_token=nope", http.Header{"Authorization": {"Bearer " + testKey}}, 401},
		{"wrong bearer", listPath, http.Header{"Authorization": {"Bearer nope"}}, 401},
		{"basic", listPath, http.Header{"Authorization": {"Basic " + testKey}}, 401},
		{"api key", listPath + "?key=" + testKey, nil, 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := serve(t, h, tt.target, tt.header)
			if w.Code != tt.want {
				t.Fatalf("status: got %d; want %d (body %s)", w.Code, tt.want, w.Body)
			}
			if tt.want == 401 {
				if got := w.Body.String(); got != unauthorizedBody {
					t.Errorf("body: got %s; want %s", got, unauthorizedBody)
				}
			}
		})
	}
}

// TestErrors: each invalid request gets its status and exact Google error body, naming the
// parameter.
func TestErrors(t *testing.T) {
	h := newTestHandler(t)
	const users = "/admin/reports/v1/activity/users/"
	bad := func(param, msg string) string {
		return `{"error":{"code":400,"message":"` + msg + `","errors":[{"message":"` + msg +
			`","domain":"global","reason":"invalid","location":"` + param + `","locationType":"parameter"}],"status":"INVALID_ARGUMENT"}}`
	}
	rangeErr := func(v string) string {
		m := "Invalid value '" + v + "'. Values must be within the range: [1, 1000]"
		return `{"error":{"code":400,"message":"` + m + `","errors":[{"message":"` + m + `","domain":"global","reason":"invalid"}],"status":"INVALID_ARGUMENT"}}`
	}
	tests := []struct {
		name, target string
		wantCode     int
		wantBody     string
	}{
		{"maxResults 0", listPath + "?maxResults=0", 400, rangeErr("0")},
		{"maxResults 1001", listPath + "?maxResults=1001", 400, rangeErr("1001")},
		{"maxResults -1", listPath + "?maxResults=-1", 400, rangeErr("-1")},
		{"maxResults text", listPath + "?maxResults=ten", 400, rangeErr("ten")},
		{"userKey", users + "alice/applications/calendar", 400,
			bad("userKey", "Invalid userKey 'alice': use all, a user's primary email address or a profile ID.")},
		{"applicationName", users + "all/applications/calender", 400,
			bad("applicationName", "Invalid applicationName 'calender'. Values must be one of: access_transparency, admin, calendar, chat, drive, gcp, gplus, groups, groups_enterprise, jamboard, login, meet, mobile, rules, saml, token, user_accounts, context_aware_access, chrome, data_studio, keep")},
		{"eventName", listPath + "?eventName=create_calender", 400,
			bad("eventName", "Invalid eventName 'create_calender': not a calendar event (see the eventName values of activities.list).")},
		{"type", listPath + "?type=calendar", 400,
			bad("type", "Invalid type 'calendar'. Values must be one of: appointment_schedule_change, calendar_change, event_change, interop, notification, subscription_change")},
		{"startTime format", listPath + "?startTime=2026-11-16", 400,
			bad("startTime", "Invalid startTime '2026-11-16': want an RFC 3339 date-time such as 2026-11-16T00:00:00Z.")},
		{"endTime format", listPath + "?endTime=yesterday", 400,
			bad("endTime", "Invalid endTime 'yesterday': want an RFC 3339 date-time such as 2026-11-16T00:00:00Z.")},
		{"startTime after endTime", listPath + "?startTime=2026-11-18T00:00:00Z&endTime=2026-11-17T00:00:00Z", 400,
			bad("startTime", "Invalid startTime '2026-11-18T00:00:00Z': the start time must be before the end time '2026-11-17T00:00:00Z'.")},
		{"startTime equals endTime", listPath + "?startTime=2026-11-18T00:00:00Z&endTime=2026-11-18T00:00:00Z", 400,
			bad("startTime", "Invalid startTime '2026-11-18T00:00:00Z': the start time must be before the end time '2026-11-18T00:00:00Z'.")},
		{"startTime in the future", listPath + "?startTime=2026-11-22T00:00:00Z", 400,
			bad("startTime", "Invalid startTime '2026-11-22T00:00:00Z': the start time must be before the current time.")},
		{"actorIpAddress", listPath + "?actorIpAddress=203.0.113", 400,
			bad("actorIpAddress", "Invalid actorIpAddress '203.0.113': want an IPv4 or IPv6 address.")},
		{"customerId", listPath + "?customerId=03az79cb", 400,
			bad("customerId", "Invalid value '03az79cb'. Values must match the following regular expression: 'C.+|my_customer'")},
		{"filters operator", listPath + "?filters=calendar_id", 400,
			bad("filters", "Invalid filters term 'calendar_id': want name<op>value with the operator ==, <>, <, <=, > or >=, terms separated by commas.")},
		{"filters integer", listPath + "?filters=start_time>soon", 400,
			bad("filters", "Invalid filters term 'start_time>soon': start_time is an integer parameter.")},
		{"filters boolean", listPath + "?filters=is_recurring>true", 400,
			bad("filters", "Invalid filters term 'is_recurring>true': is_recurring is a boolean parameter; compare it with == or <> to true or false.")},
		{"orgUnitID", listPath + "?orgUnitID=03ph8a2z23yjui6", 400,
			bad("orgUnitID", "Invalid orgUnitID '03ph8a2z23yjui6': want id:<org unit ID>.")},
		{"groupIdFilter", listPath + "?groupIdFilter=id:a,b", 400,
			bad("groupIdFilter", "Invalid groupIdFilter 'id:a,b': want id:<group ID>, comma-separated.")},
		{"pageToken", listPath + "?pageToken=abc", 400,
			bad("pageToken", "Invalid pageToken 'abc': send back the nextPageToken of the previous page unchanged, with the same parameters.")},
		{"pageToken of another application", listPath + "?pageToken=A:1795167687015000:1:drive:C03az79cb", 400,
			bad("pageToken", "Invalid pageToken 'A:1795167687015000:1:drive:C03az79cb': send back the nextPageToken of the previous page unchanged, with the same parameters.")},
		{"unknown path", "/admin/reports/v1/activity/users/all", 404,
			`{"error":{"code":404,"message":"The requested URL /admin/reports/v1/activity/users/all was not found on this server. The reports sandbox serves GET /admin/reports/v1/activity/users/{userKey}/applications/{applicationName}.","errors":[{"message":"The requested URL /admin/reports/v1/activity/users/all was not found on this server. The reports sandbox serves GET /admin/reports/v1/activity/users/{userKey}/applications/{applicationName}.","domain":"global","reason":"notFound"}],"status":"NOT_FOUND"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := serve(t, h, withToken(tt.target), nil)
			if w.Code != tt.wantCode {
				t.Errorf("status: got %d; want %d", w.Code, tt.wantCode)
			}
			if got := w.Body.String(); got != tt.wantBody {
				t.Errorf("body:\ngot  %s\nwant %s", got, tt.wantBody)
			}
		})
	}
}

// TestMethod: only GET (and HEAD) are served.
func TestMethod(t *testing.T) {
	h := newTestHandler(t)
	r := httptest.NewRequest(http.MethodPost, withToken(listPath), nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if got, want := w.Code, http.StatusMethodNotAllowed; got != want {
		t.Errorf("status: got %d; want %d", got, want)
	}
	if got, want := w.Header().Get("Allow"), "GET, HEAD"; got != want {
		t.Errorf("Allow: got %q; want %q", got, want)
	}
}

// TestNew: New needs a key and a document with a consistent catalogue.
func TestNew(t *testing.T) {
	broken := fstest.MapFS{DefaultSpec: {Data: []byte("paths:\n  " + ListPattern + ":\n    get:\n      x-loupe-events: [{name: a, group: nope, parameters: []}]\n")}}
	tests := []struct {
		name    string
		opts    Options
		wantErr bool
	}{
		{"ok", Options{Key: "k", Content: content.FS}, false},
		{"no key", Options{Content: content.FS}, true},
		{"no content", Options{Key: "k"}, true},
		{"no document", Options{Key: "k", Content: fstest.MapFS{}}, true},
		{"other path", Options{Key: "k", Content: content.FS, Spec: "openapi/missing.yaml"}, true},
		{"broken catalogue", Options{Key: "k", Content: broken}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.opts)
			if got := err != nil; got != tt.wantErr {
				t.Errorf("error: got %v; want an error: %v", err, tt.wantErr)
			}
		})
	}
}
