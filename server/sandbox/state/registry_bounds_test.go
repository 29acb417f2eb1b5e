package state_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"loupe/server/internal/clientip"
	"loupe/server/sandbox/state"
)

// anon is an anonymous session of client.
func anon(client string, i int) context.Context {
	return clientip.With(state.WithSession(context.Background(), fmt.Sprintf("anon:%s-%d", client, i)), client)
}

// TestReadersKeepNoPlace: ten thousand sessions that only read (Read, with Share) leave the
// registry and the store empty.
func TestReadersKeepNoPlace(t *testing.T) {
	store := state.NewMemory()
	reg := state.NewRegistry(store, state.Options{DropEvicted: true})
	builds := 0
	api := newNotes(reg, &builds).Share(func() (*notes, error) { return &notes{items: map[string]string{"seed": "s"}}, nil })
	for i := range 10_000 {
		if _, err := api.Read(anon(fmt.Sprint(i), i)); err != nil {
			t.Fatal(err)
		}
	}
	if reg.Len() != 0 || store.Sessions() != 0 || builds != 0 {
		t.Errorf("after 10,000 readers: %d live, %d stored, %d built; want none", reg.Len(), store.Sessions(), builds)
	}
}

// TestWritersEvictAnonymousOnly: writers far past the bounds, from one client and from many,
// leave a signed-in user's session and changes, other clients' sessions (one client's flood),
// and room for a new visitor.
func TestWritersEvictAnonymousOnly(t *testing.T) {
	store := state.NewMemory()
	reg := state.NewRegistry(store, state.Options{DropEvicted: true, Limits: state.Limits{MaxSessions: 100, MaxSessionsPerClient: 5}})
	builds := 0
	api := newNotes(reg, &builds)
	user := clientip.With(state.WithSession(context.Background(), state.UserSession("ada")), "198.51.100.1")
	other := anon("198.51.100.2", 0)
	if err := put(user, api, "mine", "kept"); err != nil {
		t.Fatal(err)
	}
	if err := put(other, api, "mine", "kept"); err != nil {
		t.Fatal(err)
	}
	for i := range 1000 { // one client, ten times the table
		if err := put(anon("203.0.113.9", i), api, "k", "v"); err != nil {
			t.Fatal(err)
		}
	}
	st := reg.Stats()
	if st.Live.Anonymous != 6 || st.Live.Protected != 1 {
		t.Errorf("after one client's flood: %+v; want its 5 and the other client's 1 anonymous, the user", st.Live)
	}
	if got := read(t, other, api); !strings.Contains(got, "mine=kept") {
		t.Errorf("the other client after one client's flood: %q; want its change", got)
	}
	for i := range 1000 { // a thousand clients
		if err := put(anon(fmt.Sprintf("10.1.%d.%d", i/256, i%256), i), api, "k", "v"); err != nil {
			t.Fatal(err)
		}
	}
	st = reg.Stats()
	if st.Live.Anonymous != 100 || st.Live.Protected != 1 || store.Sessions() != 101 {
		t.Errorf("after many clients' flood: %+v, %d stored; want 100 anonymous and the user, 101 stored", st.Live, store.Sessions())
	}
	if got := read(t, user, api); !strings.Contains(got, "mine=kept") {
		t.Errorf("the user after the floods: %q; want their change", got)
	}
	if err := put(anon("192.0.2.77", 0), api, "new", "visitor"); err != nil {
		t.Errorf("a new visitor after the floods: %v", err)
	}
}

// TestDurableStoreBoundsAnonymousSessions: with a durable store (no DropEvicted) an evicted
// anonymous session keeps its changes, up to MaxStored sessions; past it the least recently
// used one's are forgotten, never a signed-in user's. A restarted registry finds them.
func TestDurableStoreBoundsAnonymousSessions(t *testing.T) {
	store := state.NewMemory() // not DropEvicted: it stands for the durable store
	opts := state.Options{Limits: state.Limits{MaxSessions: 10, MaxSessionsPerClient: 10, MaxStored: 30}}
	reg := state.NewRegistry(store, opts)
	builds := 0
	api := newNotes(reg, &builds)
	user := state.WithSession(context.Background(), state.UserSession("ada"))
	if err := put(user, api, "mine", "kept"); err != nil {
		t.Fatal(err)
	}
	for i := range 25 {
		if err := put(anon(fmt.Sprint(i), i), api, "k", fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	if store.Sessions() != 26 || reg.Len() != 11 {
		t.Errorf("after 25 writers: %d stored, %d live; want 26 stored (evicted ones keep their changes), 11 live", store.Sessions(), reg.Len())
	}
	if got := read(t, anon("0", 0), api); !strings.Contains(got, "k=0") {
		t.Errorf("an evicted session back: %q; want its change from the store", got)
	}
	reg = state.NewRegistry(store, opts) // a restart
	api = newNotes(reg, &builds)
	for i := 25; i < 100; i++ {
		if err := put(anon(fmt.Sprint(i), i), api, "k", fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := store.Sessions(); got != 31 {
		t.Errorf("after 100 writers: %d sessions stored; want MaxStored anonymous (30) and the user", got)
	}
	if got := read(t, user, api); !strings.Contains(got, "mine=kept") {
		t.Errorf("the user after the flood: %q; want their change", got)
	}
}

// TestTotalBytesEvict: past MaxTotalBytes of the anonymous sessions' changes, the least
// recently used sessions go.
func TestTotalBytesEvict(t *testing.T) {
	store := state.NewMemory()
	reg := state.NewRegistry(store, state.Options{DropEvicted: true, Limits: state.Limits{MaxBytes: 1000, MaxTotalBytes: 3000}})
	builds := 0
	api := newNotes(reg, &builds)
	for i := range 10 {
		if err := put(anon(fmt.Sprint(i), i), api, "k", strings.Repeat("x", 900)); err != nil {
			t.Fatal(err)
		}
	}
	if st := reg.Stats(); st.Live.Weight > 3000 || st.Live.Anonymous != 3 || store.Sessions() != 3 {
		t.Errorf("got %+v, %d stored; want 3 sessions of 901 bytes", st.Live, store.Sessions())
	}
}
