package reports

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"loupe/content"
)

// testKey is the access token the test handlers accept.
const testKey = "test-token"

// listPath is the calendar list of every user.
const listPath = "/admin/reports/v1/activity/users/all/applications/calendar"

// testNow is the clock of the test handlers: the day after the dataset's newest record.
var testNow = time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)

// newTestHandler returns the sandbox over the embedded document.
func newTestHandler(t testing.TB) *handler {
	t.Helper()
	h, err := New(Options{Key: testKey, Content: content.FS, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return h.(*handler)
}

// serve sends GET target (a path and query) to h with the header.
func serve(t testing.TB, h http.Handler, target string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// withToken appends the test token to target.
func withToken(target string) string {
	if containsQuery(target) {
		return target + "&access_token=" + testKey
	}
	return target + "?access_token=" + testKey
}

// list GETs target with the token, wants 200 and decodes the page.
func list(t testing.TB, h http.Handler, target string) activities {
	t.Helper()
	w := serve(t, h, withToken(target), nil)
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: status: got %d; want 200 (body %s)", target, w.Code, w.Body)
	}
	var p activities
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatalf("GET %s: decoding %s: %v", target, w.Body, err)
	}
	return p
}

// listAll follows nextPageToken from target to the end and returns every item.
func listAll(t testing.TB, h http.Handler, target string) []activity {
	t.Helper()
	var out []activity
	next := target
	for range 2000 {
		p := list(t, h, next)
		out = append(out, p.Items...)
		if p.NextPageToken == "" {
			return out
		}
		sep := "?"
		if containsQuery(target) {
			sep = "&"
		}
		next = target + sep + "pageToken=" + p.NextPageToken
	}
	t.Fatalf("GET %s: more than 2000 pages", target)
	return nil
}

// containsQuery reports whether target has a query.
func containsQuery(target string) bool { return strings.Contains(target, "?") }

// matching returns the records of the dataset that keep selects, newest first.
func matching(h *handler, keep func(r *record) bool) []string {
	var out []string
	for i := range h.records {
		if keep(&h.records[i]) {
			out = append(out, h.records[i].act.ID.UniqueQualifier)
		}
	}
	return out
}

// qualifiers lists the unique qualifiers of items.
func qualifiers(items []activity) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.ID.UniqueQualifier)
	}
	return out
}
