// Package reports is the built-in sandbox of the reports API: an http.Handler that answers
// activities.list of the Admin SDK Reports API (GET
// /admin/reports/v1/activity/users/{userKey}/applications/{applicationName}) for the calendar
// application, over a deterministic dataset of a few hundred calendar audit records, as
// content/openapi/reports.yaml documents.
//
// The event catalogue (x-loupe-events, x-loupe-event-parameters) is read from that document at
// start, so the sandbox and the UI share one copy. It is mounted at /sandbox/reports with the
// prefix stripped, so it sees paths like /admin/reports/v1/activity/users/all/applications/calendar.
//
// The dataset: the two records of the documented 200 example, verbatim and newest (so
// ?maxResults=2 answers the example), then 2,400 generated records over the real API's
// 180-day retention, 2026-05-24 to 2026-11-20, of six users of customer C03az79cb and one
// OAuth client (callerType KEY), covering every event. The retention is anchored on the
// dataset, not the clock: a startTime before 2026-05-24 counts from there, and a range that
// then ends before it starts answers the real API's 400 "Invalid request: Start time is after
// end time." (googleapis/google-api-python-client#148). Where the document is silent the
// sandbox chooses, simply:
//   - startTime and endTime are inclusive; without endTime there is no upper bound;
//   - filters terms on parameters an event lacks, or unknown to the catalogue, are ignored;
//     strings compare byte-wise, integers numerically, booleans only with == and <>;
//   - another application of the enum, another customer, or a user with no records give an
//     empty items list; an application outside the enum is a 400;
//   - every page has the same etag, the dataset's; the page token is
//     A:<microseconds>:<uniqueQualifier>:<application>:<customer> of the page's last record.
package reports

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ListPattern is the path of activities.list, as the OpenAPI document spells it.
const ListPattern = "/admin/reports/v1/activity/users/{userKey}/applications/{applicationName}"

// DefaultSpec is where the reports document lives inside Options.Content.
const DefaultSpec = "openapi/reports.yaml"

// calendarApp is the one application with records in the sandbox.
const calendarApp = "calendar"

// datasetETag is the etag of every page: the dataset never changes, so neither does its
// version. It is the documented example's etag.
const datasetETag = `"k3J8Yv2mQ7c1"`

// Options configures New.
type Options struct {
	// Key is the access token every request must carry, in the access_token query parameter
	// or as Authorization: Bearer <token>. Required: New fails when it is empty. A request
	// without it, or with another token, gets the documented 401.
	Key string
	// Content is the file system holding the OpenAPI document, usually the content package's
	// embedded tree (content.FS). Required.
	Content fs.FS
	// Spec is the document's path inside Content; default DefaultSpec.
	Spec string
	// Now returns the current time, against which startTime is checked (it must be before
	// now); default time.Now.
	Now func() time.Time
}

// handler serves activities.list over the dataset, newest first.
type handler struct {
	key     string
	cat     *catalog
	records []record
	now     func() time.Time
}

// New reads the event catalogue from the document, builds the dataset and returns the handler.
func New(opts Options) (http.Handler, error) {
	if opts.Key == "" {
		return nil, errors.New("reports sandbox: Options.Key is required")
	}
	if opts.Content == nil {
		return nil, errors.New("reports sandbox: Options.Content is required")
	}
	spec := opts.Spec
	if spec == "" {
		spec = DefaultSpec
	}
	cat, err := loadCatalog(opts.Content, spec)
	if err != nil {
		return nil, fmt.Errorf("reports sandbox: %w", err)
	}
	records, err := buildDataset(cat)
	if err != nil {
		return nil, fmt.Errorf("reports sandbox: %w", err)
	}
	h := &handler{key: opts.Key, cat: cat, records: records, now: opts.Now}
	if h.now == nil {
		h.now = time.Now
	}
	return h, nil
}

// ServeHTTP checks, in order: path (404), method (405), access token (401), parameters (400);
// then writes one page of the matching records.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	userKey, app, ok := splitPath(r.URL.EscapedPath())
	if !ok {
		writeError(w, notFound(r.URL.Path))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, methodNotAllowed(r.Method))
		return
	}
	v := r.URL.Query()
	if !h.authorized(r, v) {
		writeRaw(w, http.StatusUnauthorized, unauthorizedBody)
		return
	}
	q, apiErr := parseQuery(userKey, app, v, h.cat, h.now())
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	writeJSON(w, http.StatusOK, h.page(q))
}

// splitPath extracts userKey and applicationName from an escaped path.
func splitPath(escaped string) (userKey, app string, ok bool) {
	rest, ok := strings.CutPrefix(escaped, "/admin/reports/v1/activity/users/")
	if !ok {
		return "", "", false
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 3 || parts[1] != "applications" || parts[0] == "" || parts[2] == "" {
		return "", "", false
	}
	userKey, err1 := url.PathUnescape(parts[0])
	app, err2 := url.PathUnescape(parts[2])
	return userKey, app, err1 == nil && err2 == nil
}

// authorized reports whether the request carries the key: in access_token (the contract's
// form) or else as a bearer token (the real API's OAuth form).
func (h *handler) authorized(r *http.Request, v url.Values) bool {
	if tok, ok := v["access_token"]; ok {
		return len(tok) > 0 && tok[0] == h.key
	}
	scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	return strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(tok) == h.key
}
