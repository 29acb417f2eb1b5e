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
// Each change is first handed to a save function (the session's durable
// record, changes.go) and made only when that succeeds.
type store struct {
	mu        sync.RWMutex
	byID      []Item // ordering "id"
	byCreated []Item // ordering "-created", newest first
	nextID    int    // like an auto-increment column: never reused after a delete
}

// newStore returns a store of items.
func newStore(items []Item) *store {
	s := &store{}
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
// the next ID, once save accepts it. ok is false when an item was already
// created at that time (the field is unique); err is save's.
func (s *store) insert(name string, created time.Time, save func(Item) error) (it Item, ok bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if created.IsZero() {
		created = time.Now().UTC().Truncate(time.Microsecond)
		for s.createdAt(created) {
			created = created.Add(time.Microsecond)
		}
	} else if s.createdAt(created) {
		return Item{}, false, nil
	}
	it = Item{ID: s.nextID, Name: name, Created: created.UTC()}
	if err := save(it); err != nil {
		return Item{}, true, err
	}
	s.add(it)
	return it, true, nil
}

// add puts it in both orders and moves the next ID past it; the caller holds
// the write lock (or owns s).
func (s *store) add(it Item) {
	s.nextID = max(s.nextID, it.ID+1)
	i, _ := slices.BinarySearchFunc(s.byID, it.ID, func(a Item, id int) int { return cmp.Compare(a.ID, id) })
	s.byID = slices.Insert(slices.Clip(s.byID), i, it)
	j, _ := slices.BinarySearchFunc(s.byCreated, it, func(a, b Item) int { return b.Created.Compare(a.Created) })
	s.byCreated = slices.Insert(slices.Clip(s.byCreated), j, it)
}

// createdAt reports whether an item was created at t; the caller holds a lock.
func (s *store) createdAt(t time.Time) bool {
	_, found := slices.BinarySearchFunc(s.byCreated, t, func(a Item, t time.Time) int { return t.Compare(a.Created) })
	return found
}

// remove deletes the item with id once save accepts it, reporting whether
// there was one; err is save's.
func (s *store) remove(id int, save func() error) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.has(id) {
		return false, nil
	}
	if err := save(); err != nil {
		return true, err
	}
	s.drop(id)
	return true, nil
}

// has reports whether an item has id; the caller holds a lock.
func (s *store) has(id int) bool {
	_, found := slices.BinarySearchFunc(s.byID, id, func(a Item, id int) int { return cmp.Compare(a.ID, id) })
	return found
}

// drop removes the item with id; the caller holds the write lock (or owns s).
func (s *store) drop(id int) {
	s.byID = slices.DeleteFunc(slices.Clone(s.byID), func(it Item) bool { return it.ID == id })
	s.byCreated = slices.DeleteFunc(slices.Clone(s.byCreated), func(it Item) bool { return it.ID == id })
}
