package reports

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"

	admin "google.golang.org/api/admin/reports/v1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
)

// bearer adds an OAuth bearer token to every request, as an authenticated client would.
type bearer struct{ token string }

// RoundTrip implements http.RoundTripper.
func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// newClient returns the official client pointed at the sandbox mounted under /sandbox/reports.
func newClient(t *testing.T, token string) *admin.Service {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/sandbox/reports/", http.StripPrefix("/sandbox/reports", newTestHandler(t)))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	svc, err := admin.NewService(context.Background(),
		option.WithEndpoint(srv.URL+"/sandbox/reports/"),
		option.WithHTTPClient(&http.Client{Transport: bearer{token}}))
	if err != nil {
		t.Fatalf("admin.NewService: %v", err)
	}
	return svc
}

// TestOfficialClient drives the sandbox with google.golang.org/api/admin/reports/v1: it pages
// through every record, filters, and reads the typed parameters.
func TestOfficialClient(t *testing.T) {
	h := newTestHandler(t)
	svc := newClient(t, testKey)
	ctx := context.Background()

	var got []string
	pages := 0
	err := svc.Activities.List("all", "calendar").MaxResults(50).Pages(ctx, func(p *admin.Activities) error {
		pages++
		if p.Kind != kindActivities {
			t.Errorf("kind: got %q; want %q", p.Kind, kindActivities)
		}
		for _, a := range p.Items {
			got = append(got, strconv.FormatInt(a.Id.UniqueQualifier, 10))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Pages: %v", err)
	}
	if want := matching(h, func(*record) bool { return true }); !reflect.DeepEqual(got, want) {
		t.Errorf("paging: got %d records; want %d, in order", len(got), len(want))
	}
	if want := (len(h.records) + 49) / 50; pages != want {
		t.Errorf("pages: got %d; want %d", pages, want)
	}

	resp, err := svc.Activities.List("alice@example.com", "calendar").EventName("change_calendar_acls").
		StartTime("2026-11-20T12:00:00Z").Filters("grantee_email==bob@example.com").MaxResults(10).Do()
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(resp.Items) != 1 {
		t.Fatalf("filtered list: got %d items; want the documented record", len(resp.Items))
	}
	a := resp.Items[0]
	if a.Id.Time != "2026-11-20T14:03:11.482Z" || a.Actor.Email != "alice@example.com" || a.IpAddress != "203.0.113.5" {
		t.Errorf("record: got %s %s %s; want the documented one", a.Id.Time, a.Actor.Email, a.IpAddress)
	}
	if ev := a.Events[0]; ev.Name != "change_calendar_acls" || ev.Type != "calendar_change" || ev.Parameters[4].Name != "access_level" || ev.Parameters[4].Value != "read" {
		t.Errorf("event: got %+v; want change_calendar_acls with access_level read", ev)
	}

	resp, err = svc.Activities.List("carol@example.com", "calendar").EventName("create_appointment_schedule").MaxResults(1).Do()
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	for _, p := range resp.Items[0].Events[0].Parameters {
		switch p.Name {
		case "is_recurring":
			if !p.BoolValue {
				t.Errorf("is_recurring: got %v; want true", p.BoolValue)
			}
		case "start_time":
			if p.IntValue != 63931107600 {
				t.Errorf("start_time: got %d; want 63931107600", p.IntValue)
			}
		}
	}
}

// TestOfficialClientErrors: the client sees the sandbox's errors as *googleapi.Error.
func TestOfficialClientErrors(t *testing.T) {
	tests := []struct {
		name, token string
		call        func(*admin.Service) error
		wantCode    int
		wantReason  string
	}{
		{"wrong token", "nope", func(s *admin.Service) error { _, err := s.Activities.List("all", "calendar").Do(); return err }, 401, "authError"},
		{"maxResults", testKey, func(s *admin.Service) error {
			_, err := s.Activities.List("all", "calendar").MaxResults(5000).Do()
			return err
		}, 400, "invalid"},
		{"startTime", testKey, func(s *admin.Service) error {
			_, err := s.Activities.List("all", "calendar").StartTime("last week").Do()
			return err
		}, 400, "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call(newClient(t, tt.token))
			var gerr *googleapi.Error
			if !errors.As(err, &gerr) {
				t.Fatalf("error: got %v; want a *googleapi.Error", err)
			}
			if gerr.Code != tt.wantCode || len(gerr.Errors) != 1 || gerr.Errors[0].Reason != tt.wantReason {
				t.Errorf("error: got %d %+v; want %d %s", gerr.Code, gerr.Errors, tt.wantCode, tt.wantReason)
			}
		})
	}
}
