package state_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"loupe/server/sandbox/state"
)

// TestServeReset: POST resets the caller's session only; another method is refused with 405.
func TestServeReset(t *testing.T) {
	reg := state.NewRegistry(state.NewMemory(), state.Options{})
	builds := 0
	api := newNotes(reg, &builds)
	ada := state.WithSession(context.Background(), "user:ada")
	bob := state.WithSession(context.Background(), "user:bob")
	put(ada, api, "a", "1")
	put(bob, api, "b", "1")

	w := httptest.NewRecorder()
	state.ServeReset(w, httptest.NewRequest("GET", "/_sandbox/reset", nil).WithContext(ada), reg, "notes")
	if w.Code != 405 || w.Header().Get("Allow") != "POST" {
		t.Errorf("GET: got %d Allow %q; want 405 Allow POST", w.Code, w.Header().Get("Allow"))
	}
	w = httptest.NewRecorder()
	state.ServeReset(w, httptest.NewRequest("POST", "/_sandbox/reset", nil).WithContext(ada), reg, "notes")
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"reset":"notes"`) {
		t.Errorf("POST: got %d %s; want 200 {\"reset\":\"notes\"}", w.Code, w.Body)
	}
	if got := read(t, ada, api); got != "seed=from the seed" {
		t.Errorf("ada after reset: got %q; want the seed", got)
	}
	if got := read(t, bob, api); got != "b=1,seed=from the seed" {
		t.Errorf("bob after ada's reset: got %q; want his change kept", got)
	}
}
