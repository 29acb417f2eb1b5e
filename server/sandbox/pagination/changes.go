package pagination

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"loupe/server/sandbox/drf"
	"loupe/server/sandbox/state"
)

// Keys of a session's stored changes (state.Store), never the seed: a record
// per item the session inserted ("item/<id>": the item's JSON), a tombstone
// per seeded item it deleted ("item/<id>": "deleted"), and the ID the next
// insert gets ("next_id"), since IDs are never reused.
const (
	itemPrefix = "item/"
	nextIDKey  = "next_id"
	tombstone  = "deleted"
)

// userItems is one sandbox session's items. Until the session inserts or
// deletes, own is nil and it reads the shared seeded store (reads cost
// nothing per session); its first change builds its own copy.
type userItems struct {
	mu  sync.Mutex // guards own
	own *store
}

// build is the state.API builder: a session's items, the seed with its
// stored changes replayed.
func (h *handler) build(_ string, entries []state.Entry) (*userItems, error) {
	if len(entries) == 0 {
		return &userItems{}, nil
	}
	s := newStore(h.seedItems)
	for _, e := range entries {
		if e.Key == nextIDKey {
			n, err := strconv.Atoi(string(e.Value))
			if err != nil || n < s.nextID {
				return nil, fmt.Errorf("the saved next ID %q does not fit the items", e.Value)
			}
			s.nextID = n
			continue
		}
		id, err := strconv.Atoi(strings.TrimPrefix(e.Key, itemPrefix))
		if err != nil || !strings.HasPrefix(e.Key, itemPrefix) {
			return nil, fmt.Errorf("the saved items hold an unknown record %q", e.Key)
		}
		if string(e.Value) == tombstone {
			if !h.seedIDs[id] || !s.has(id) {
				return nil, fmt.Errorf("the saved items delete item %d, which the seed does not hold", id)
			}
			s.drop(id)
			continue
		}
		var it Item
		if err := json.Unmarshal(e.Value, &it); err != nil || it.ID != id || h.seedIDs[id] || s.has(id) || s.createdAt(it.Created) {
			return nil, fmt.Errorf("the saved item %d does not fit the seed", id)
		}
		s.add(it)
	}
	return &userItems{own: s}, nil
}

// itemKey is the stored record of the item with id.
func itemKey(id int) string { return itemPrefix + strconv.Itoa(id) }

// items returns the store r's session reads (the seed until its first change:
// reading makes no session), or writes the error that prevents it and returns
// nil.
func (h *handler) items(w http.ResponseWriter, r *http.Request) *store {
	u, err := h.users.Read(r.Context())
	if err != nil {
		writeStateError(w, err)
		return nil
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.own != nil {
		return u.own
	}
	return h.seed
}

// change runs op on the session's own store, built from the seed on its first
// change; op hands each change to save, which stores it durably before the
// store shows it, and reports whether it changed anything.
func (h *handler) change(ctx context.Context, op func(s *store, save func(...state.Change) error) (bool, error)) error {
	u, err := h.users.Get(ctx)
	if err != nil {
		return err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	s := u.own
	if s == nil {
		s = newStore(h.seedItems)
	}
	changed, err := op(s, func(c ...state.Change) error { return h.users.Apply(ctx, c...) })
	if changed && err == nil {
		u.own = s
	}
	return err
}

// writeStateError answers, in DRF's shape, a session that cannot be served or
// changed: a limit (429 too many sessions, 507 a full session), a saved state
// that cannot be restored, or the store failing.
func writeStateError(w http.ResponseWriter, err error) {
	if le := state.AsLimit(err); le != nil {
		drf.WriteJSON(w, le.Status, detail{le.Message})
		return
	}
	drf.WriteJSON(w, http.StatusInternalServerError, detail{"Your pagination sandbox could not be loaded or saved (" + err.Error() +
		"). Reset it to start again from the seeded items: POST " + DefaultPrefix + ItemsResetPath + ", or Reset on the API's page in Loupe."})
}
