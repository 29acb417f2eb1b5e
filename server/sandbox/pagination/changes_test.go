package pagination

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"loupe/server/sandbox/state"
	"loupe/server/sandbox/state/boltstore"
)

// sendAs is send as session.
func sendAs(h http.Handler, session, method, target, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r = r.WithContext(state.WithSession(r.Context(), session))
	if body != "" {
		r.Header.Set("Content-Type", jsonType)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// idsAs is the IDs of the limit/offset list session reads, ordered by creation.
func idsAs(t *testing.T, h http.Handler, session string) []int {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, base+LimitOffsetPath+"?ordering=created&limit=100", nil)
	r = r.WithContext(state.WithSession(r.Context(), session))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Fatalf("list as %s: got %d %s", session, w.Code, w.Body)
	}
	var p page
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	return ids(p.Results)
}

// mountedOn is the sandbox over a registry of store.
func mountedOn(store state.Store, limits state.Limits) http.Handler {
	return mounted(Options{Registry: state.NewRegistry(store, state.Options{Limits: limits})})
}

// TestSessionsSeeTheirOwnItems: one session's inserts and deletes are its
// own; another reads the seed without a copy of it; the reset restores the
// first session only.
func TestSessionsSeeTheirOwnItems(t *testing.T) {
	store := state.NewMemory()
	h := mountedOn(store, state.Limits{})
	seed := idsAs(t, h, "bob")
	if w := sendAs(h, "alice", http.MethodPost, base+ItemsPath, `{"name":"Alice's","created":"2026-01-01T12:00:00Z"}`); w.Code != http.StatusCreated {
		t.Fatalf("insert: got %d %s", w.Code, w.Body)
	}
	if w := sendAs(h, "alice", http.MethodDelete, base+"/items/3/", ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete: got %d %s", w.Code, w.Body)
	}
	alice := idsAs(t, h, "alice")
	if len(alice) != len(seed) || alice[0] != 1 || alice[1] != 96 || alice[2] != 2 || alice[3] != 4 {
		t.Errorf("alice's items: got %v…; want 1, 96 (hers), 2, 4 (3 deleted)", alice[:5])
	}
	if got := idsAs(t, h, "bob"); !reflect.DeepEqual(got, seed) {
		t.Errorf("bob's items: got %v; want the seed", got[:5])
	}
	if w := sendAs(h, "bob", http.MethodDelete, base+"/items/96/", ""); w.Code != http.StatusNotFound {
		t.Errorf("bob deleting alice's item: got %d %s; want 404", w.Code, w.Body)
	}
	if entries, _ := store.Load("bob", "pagination"); len(entries) != 0 {
		t.Errorf("bob changed nothing, yet the store holds %d records of his", len(entries))
	}
	entries, _ := store.Load("alice", "pagination")
	var keys []string
	for _, e := range entries {
		keys = append(keys, e.Key+"="+string(e.Value))
	}
	if got, want := strings.Join(keys, " "), `item/3=deleted item/96={"id":96,"name":"Alice's","created":"2026-01-01T12:00:00Z"} next_id=97`; got != want {
		t.Errorf("alice's records: got %s; want %s (only what changed, never the seed)", got, want)
	}
	if w := sendAs(h, "alice", http.MethodPost, base+ItemsResetPath, ""); w.Code != http.StatusNoContent {
		t.Fatalf("reset: got %d %s", w.Code, w.Body)
	}
	if got := idsAs(t, h, "alice"); !reflect.DeepEqual(got, seed) {
		t.Errorf("alice after reset: got %v; want the seed", got[:5])
	}
}

// TestItemsSurviveARestart: with a durable store, a session's items come
// back in a new handler over the same directory, and IDs are still never
// reused.
func TestItemsSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	store, err := boltstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := mountedOn(store, state.Limits{})
	sendAs(h, "alice", http.MethodPost, base+ItemsPath, `{"name":"One"}`)
	sendAs(h, "alice", http.MethodPost, base+ItemsPath, `{"name":"Two"}`)
	sendAs(h, "alice", http.MethodDelete, base+"/items/97/", "")
	sendAs(h, "alice", http.MethodDelete, base+"/items/1/", "")
	before := idsAs(t, h, "alice")
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	store, err = boltstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	h = mountedOn(store, state.Limits{})
	if got := idsAs(t, h, "alice"); !reflect.DeepEqual(got, before) {
		t.Errorf("after the restart: got %v; want %v", got, before)
	}
	w := sendAs(h, "alice", http.MethodPost, base+ItemsPath, `{"name":"Three"}`)
	if w.Code != http.StatusCreated || !strings.Contains(w.Body.String(), `"id":98`) {
		t.Errorf("insert after the restart: got %d %s; want id 98 (97 was used)", w.Code, w.Body)
	}
}

// TestItemsSessionFull: an insert past the session's bytes is refused in
// DRF's shape and the list does not show it.
func TestItemsSessionFull(t *testing.T) {
	h := mountedOn(state.NewMemory(), state.Limits{MaxBytes: 200})
	if w := sendAs(h, "alice", http.MethodPost, base+ItemsPath, `{"name":"fits"}`); w.Code != http.StatusCreated {
		t.Fatalf("first insert: got %d %s", w.Code, w.Body)
	}
	w := sendAs(h, "alice", http.MethodPost, base+ItemsPath, `{"name":"`+strings.Repeat("x", 100)+`"}`)
	if w.Code != http.StatusInsufficientStorage || !strings.Contains(w.Body.String(), `"detail":"Your sandbox session holds as many changes`) {
		t.Fatalf("insert past the limit: got %d %s; want 507 with DRF's detail", w.Code, w.Body)
	}
	if got := idsAs(t, h, "alice"); len(got) != 96 {
		t.Errorf("after the refused insert: %d items; want 96", len(got))
	}
}

// TestItemsRestoreRefusesWhatDoesNotFit: a record that does not fit the seed
// is refused with a reason.
func TestItemsRestoreRefusesWhatDoesNotFit(t *testing.T) {
	tests := []struct {
		name, key, value, want string
	}{
		{"an unknown record", "colour", "red", "unknown record"},
		{"a tombstone of an item the seed lacks", "item/500", "deleted", "item 500"},
		{"an insert with a seeded id", "item/5", `{"id":5,"name":"x","created":"2030-01-01T00:00:00Z"}`, "item 5"},
		{"an insert whose id is not its key", "item/96", `{"id":97,"name":"x","created":"2030-01-01T00:00:00Z"}`, "item 96"},
		{"a next ID behind the seed", "next_id", "3", "next ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := state.NewMemory()
			if err := store.Apply(state.Local, "pagination", []state.Change{state.Put(tt.key, []byte(tt.value))}); err != nil {
				t.Fatal(err)
			}
			h := New(Options{Registry: state.NewRegistry(store, state.Options{})}).(*handler)
			_, err := h.users.Get(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v; want an error containing %q", err, tt.want)
			}
		})
	}
}
