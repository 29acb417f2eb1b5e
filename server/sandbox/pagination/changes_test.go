package pagination

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestChangesRoundTrip saves a store's changes and restores them over the
// seed: the same items in both orders, the same next ID, and a record that
// holds only what changed.
func TestChangesRoundTrip(t *testing.T) {
	seed := DefaultItems()
	s := newStore(seed)
	a, _ := s.insert("Kept", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	b, _ := s.insert("Gone", time.Time{})
	s.remove(b.ID)
	s.remove(7)
	data, err := s.marshalChanges()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(data), `{"v":1,"added":[{"id":96,"name":"Kept","created":"2026-03-01T00:00:00Z"}],"removed":[7],"next_id":98}`; got != want {
		t.Errorf("saved: got %s; want %s", got, want)
	}
	r, err := restoreChanges(seed, data)
	if err != nil {
		t.Fatal(err)
	}
	gotID, gotCreated := r.snapshot()
	wantID, wantCreated := s.snapshot()
	if !reflect.DeepEqual(gotID, wantID) || !reflect.DeepEqual(gotCreated, wantCreated) {
		t.Errorf("restored items differ: got %d/%d items; want %d/%d", len(gotID), len(gotCreated), len(wantID), len(wantCreated))
	}
	if next, _ := r.insert("Next", time.Time{}); next.ID != 98 || a.ID != 96 {
		t.Errorf("next insert after restore: got id %d; want 98 (ids are never reused)", next.ID)
	}
	r.reset()
	if got, _ := r.marshalChanges(); string(got) != `{"v":1,"next_id":96}` {
		t.Errorf("after reset: got %s; want no changes", got)
	}
}

// TestChangesRefused: a record that does not fit the seed is refused.
func TestChangesRefused(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"not JSON", `[`, "decoding the saved items"},
		{"another format", `{"v":2}`, "format 2"},
		{"deletes an unknown item", `{"v":1,"removed":[500],"next_id":96}`, "item 500"},
		{"adds a seeded id", `{"v":1,"added":[{"id":5,"name":"x","created":"2030-01-01T00:00:00Z"}],"next_id":96}`, "item 5"},
		{"adds a taken created", `{"v":1,"added":[{"id":96,"name":"x","created":"` + DefaultItems()[0].Created.Format(time.RFC3339Nano) + `"}],"next_id":97}`, "item 96"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := restoreChanges(DefaultItems(), []byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v; want an error containing %q", err, tt.want)
			}
		})
	}
}
