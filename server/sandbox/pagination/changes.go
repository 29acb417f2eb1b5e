package pagination

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// changesVersion is the format of saved changes; changes saved in another
// format are not restored.
const changesVersion = 1

// changes is what one session did to the seeded items, the record the
// sandbox saves: never the seed itself, so a session that inserted one item
// saves one item.
type changes struct {
	V int `json:"v"`
	// Added are the items inserted and not deleted since, in order.
	Added []Item `json:"added,omitempty"`
	// Removed are the IDs of the seeded items deleted.
	Removed []int `json:"removed,omitempty"`
	// NextID is the ID the next insert gets (IDs are never reused).
	NextID int `json:"next_id"`
}

// marshalChanges encodes what s changed since the seed.
func (s *store) marshalChanges() ([]byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return json.Marshal(changes{V: changesVersion, Added: s.added, Removed: s.removed, NextID: s.nextID})
}

// restoreChanges builds the store of the seeded items with the saved changes
// applied, refusing a record that does not fit the seed.
func restoreChanges(seed []Item, data []byte) (*store, error) {
	var ch changes
	if err := json.Unmarshal(data, &ch); err != nil {
		return nil, fmt.Errorf("decoding the saved items: %w", err)
	}
	if ch.V != changesVersion {
		return nil, fmt.Errorf("the saved items have format %d; this Loupe reads format %d", ch.V, changesVersion)
	}
	s := newStore(seed)
	items := slices.Clone(s.initial)
	for _, id := range ch.Removed {
		i := slices.IndexFunc(items, func(it Item) bool { return it.ID == id })
		if i < 0 {
			return nil, fmt.Errorf("the saved items delete item %d, which the seed does not hold", id)
		}
		items = slices.Delete(items, i, i+1)
	}
	created := map[time.Time]bool{}
	for _, it := range items {
		created[it.Created] = true
	}
	prev := s.nextID - 1
	for _, it := range ch.Added {
		if it.ID <= prev || it.ID >= ch.NextID || created[it.Created] || it.Name == "" {
			return nil, fmt.Errorf("the saved items hold an item %d that does not fit the seed", it.ID)
		}
		created[it.Created], prev = true, it.ID
		items = append(items, it)
	}
	s.set(items)
	s.nextID = max(ch.NextID, s.nextID)
	s.added, s.removed = slices.Clone(ch.Added), slices.Clone(ch.Removed)
	return s, nil
}
