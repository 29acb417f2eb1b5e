package script

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// stubShared is SharedSlots answering ok and err, counting the slots held.
type stubShared struct {
	ok   bool
	err  error
	held int
}

func (s *stubShared) Take(_ context.Context, user string) (func(), bool, error) {
	if s.err != nil || !s.ok {
		return nil, false, s.err
	}
	s.held++
	return func() { s.held-- }, true, nil
}

func (s *stubShared) PerUser() int { return 2 }

// TestRunSlotsShared: with shared slots, the user's bound is theirs (429 naming their
// PerUser, 503 when they cannot answer) and the server's own bound still holds; a refused or
// finished run gives back every slot it took.
func TestRunSlotsShared(t *testing.T) {
	tests := []struct {
		name       string
		shared     *stubShared
		wantStatus int    // 0: a slot
		wantText   string // in the refusal's message
	}{
		{"a slot", &stubShared{ok: true}, 0, ""},
		{"the user's slots held elsewhere", &stubShared{}, http.StatusTooManyRequests, "at most 2 of one user's scripts"},
		{"the database gone", &stubShared{err: errors.New("dial tcp: connection refused")}, http.StatusServiceUnavailable, "server.database"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newRunSlots(1, 1)
			s.shared = tt.shared
			release, e := s.take(context.Background(), "ada")
			switch {
			case tt.wantStatus == 0 && e != nil:
				t.Fatalf("got %+v; want a slot", e)
			case tt.wantStatus != 0 && (e == nil || e.Error.Code != tt.wantStatus || !strings.Contains(e.Error.Message, tt.wantText)):
				t.Fatalf("got %+v; want %d saying %q", e, tt.wantStatus, tt.wantText)
			}
			if e == nil {
				if _, e2 := s.take(context.Background(), "grace"); e2 == nil || !strings.Contains(e2.Error.Message, "at most 1 scripts at once") {
					t.Errorf("a second run past the server's bound of 1: got %+v; want the server's 429", e2)
				}
				release()
				release()
			}
			if s.total != 0 || tt.shared.held != 0 {
				t.Errorf("after the run: got %d server slots and %d shared held; want 0 and 0", s.total, tt.shared.held)
			}
		})
	}
}
