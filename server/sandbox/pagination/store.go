package pagination

import (
	"cmp"
	"slices"
	"sync"
	"time"
)

// store holds the items the three lists show. Inserts and deletes (the
// sandbox-only calls, see mutate.go) replace its sorted slices instead of
// changing them, so a request that took a snapshot keeps a consistent view.
type store struct {
	mu        sync.RWMutex
	initial   []Item // what reset restores
	byID      []Item // ordering "id"
	byCreated []Item // ordering "-created", newest first
	nextID    int    // like an auto-increment column: never reused after a delete
	added     []Item // the items inserted since the seed and not deleted, in order
	removed   []int  // the IDs of the seeded items deleted
}

// newStore returns a store of items.
func newStore(items []Item) *store {
	s := &store{initial: slices.Clone(items)}
	s.set(items)
	return s
}

// set replaces the items; the caller holds the write lock (or owns s).
func (s *store) set(items []Item) {
	s.byID = slices.Clone(items)
	slices.SortStableFunc(s.byID, func(a, b Item) int { return a.ID - b.ID })
	s.byCreated = slices.Clone(items)
	slices.SortStableFunc(s.byCreated, func(a, b Item) int { return b.Created.Compare(a.Created) })
	s.nextID = 1
	if n := len(s.byID); n > 0 {
		s.nextID = s.byID[n-1].ID + 1
	}
}

// snapshot returns the items by ID and newest first; the slices are never
// changed afterwards.
func (s *store) snapshot() (byID, byCreated []Item) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byID, s.byCreated
}

// insert adds an item named name, created at created (now when zero), with
// the next ID. It reports false when an item was already created at that
// time (the field is unique).
func (s *store) insert(name string, created time.Time) (Item, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if created.IsZero() {
		created = time.Now().UTC().Truncate(time.Microsecond)
		for s.createdAt(created) {
			created = created.Add(time.Microsecond)
		}
	} else if s.createdAt(created) {
		return Item{}, false
	}
	it := Item{ID: s.nextID, Name: name, Created: created.UTC()}
	s.nextID++
	s.byID = append(slices.Clip(s.byID), it)
	i, _ := slices.BinarySearchFunc(s.byCreated, it, func(a, b Item) int { return b.Created.Compare(a.Created) })
	s.byCreated = slices.Insert(slices.Clip(s.byCreated), i, it)
	s.added = append(s.added, it)
	return it, true
}

// createdAt reports whether an item was created at t; the caller holds a lock.
func (s *store) createdAt(t time.Time) bool {
	_, found := slices.BinarySearchFunc(s.byCreated, t, func(a Item, t time.Time) int { return t.Compare(a.Created) })
	return found
}

// remove deletes the item with id, reporting whether there was one.
func (s *store) remove(id int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, found := slices.BinarySearchFunc(s.byID, id, func(a Item, id int) int { return cmp.Compare(a.ID, id) })
	if !found {
		return false
	}
	s.byID = slices.Delete(slices.Clone(s.byID), i, i+1)
	s.byCreated = slices.DeleteFunc(slices.Clone(s.byCreated), func(it Item) bool { return it.ID == id })
	if j := slices.IndexFunc(s.added, func(it Item) bool { return it.ID == id }); j >= 0 {
		s.added = slices.Delete(s.added, j, j+1)
	} else {
		s.removed = append(s.removed, id)
	}
	return true
}

// reset restores the items the store started with.
func (s *store) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.set(s.initial)
	s.added, s.removed = nil, nil
}
