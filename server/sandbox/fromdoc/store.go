package fromdoc

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"

	"loupe/server/sandbox/state"
)

// The collections of a session live in memory (live), built from the seed and the session's
// stored changes (server/sandbox/state): one change per item created, changed or deleted, and
// one per collection's id counter. A session that only reads shares the seed.

// collections keeps every session's collections of one API.
type collections struct {
	api   *state.API[*live]
	doc   *Document
	model *Model
	log   *slog.Logger
}

// live is one session's collections. Reads hold mu for reading; changes for writing.
type live struct {
	mu     sync.RWMutex
	scopes map[string]*scope // by scopeKey
	seq    int64             // the last creation's sequence number
}

// scope is one collection's items at one concrete collection path (/owners/7/pets).
type scope struct {
	items map[string]*entry // by id; an entry is never changed once stored
	next  int64             // the next integer id

	cacheMu sync.Mutex
	cache   map[string]*answer // answers made from these items, until they change
}

// maxScopeCache bounds a scope's cached answers; when full it starts again empty.
const maxScopeCache = 256

// cached returns the answer kept under key, or nil.
func (sc *scope) cached(key string) *answer {
	sc.cacheMu.Lock()
	defer sc.cacheMu.Unlock()
	return sc.cache[key]
}

// keep keeps an answer made from the scope's items under key.
func (sc *scope) keep(key string, a *answer) {
	sc.cacheMu.Lock()
	defer sc.cacheMu.Unlock()
	if sc.cache == nil || len(sc.cache) >= maxScopeCache {
		sc.cache = map[string]*answer{}
	}
	sc.cache[key] = a
}

// changed forgets the answers made from the scope's items; the caller holds the live state's
// write lock.
func (sc *scope) changed() {
	sc.cacheMu.Lock()
	sc.cache = nil
	sc.cacheMu.Unlock()
}

// entry is one item.
type entry struct {
	Seq     int64          `json:"seq"`
	ID      string         `json:"id"`
	Item    map[string]any `json:"item,omitempty"`
	Deleted bool           `json:"deleted,omitempty"`
}

// newCollections returns the per-session collections of an API named name.
func newCollections(reg *state.Registry, name string, d *Document, m *Model, log *slog.Logger) *collections {
	c := &collections{doc: d, model: m, log: log}
	c.api = state.NewAPI(reg, name, c.build).Share(func() (*live, error) { return &live{scopes: map[string]*scope{}}, nil })
	return c
}

// scopeKey names a collection at a concrete path.
func scopeKey(res *Resource, path string) string { return res.Collection + "\x00" + path }

// itemKey and counterKey are the stored changes' keys.
func itemKey(res *Resource, path, id string) string {
	return "i\x00" + scopeKey(res, path) + "\x00" + id
}
func counterKey(res *Resource, path string) string { return "n\x00" + scopeKey(res, path) }

// build makes a session's live collections: the seed, with its stored changes replayed.
func (c *collections) build(_ string, changes []state.Entry) (*live, error) {
	lv := &live{scopes: map[string]*scope{}}
	byColl := map[string]*Resource{}
	for _, r := range c.model.Resources {
		byColl[r.Collection] = r
	}
	for _, ch := range changes {
		parts := strings.Split(ch.Key, "\x00")
		switch {
		case parts[0] == "i" && len(parts) == 4:
			res := byColl[parts[1]]
			if res == nil {
				continue // the document changed: the collection is gone
			}
			var e entry
			if err := json.Unmarshal(ch.Value, &e); err != nil {
				return nil, fmt.Errorf("reading %s item %s: %w", res.Collection, parts[3], err)
			}
			sc := lv.scope(res, parts[2])
			sc.items[e.ID] = &e
			lv.seq = max(lv.seq, e.Seq)
		case parts[0] == "n" && len(parts) == 3:
			if res := byColl[parts[1]]; res != nil {
				n, _ := strconv.ParseInt(string(ch.Value), 10, 64)
				sc := lv.scope(res, parts[2])
				sc.next = max(sc.next, n)
			}
		}
	}
	return lv, nil
}

// scope returns the collection at a concrete path to change, made from the seed on first use.
// Only a session's own live state may call it, holding its write lock; reads use scopeFor.
func (lv *live) scope(res *Resource, path string) *scope {
	k := scopeKey(res, path)
	if sc := lv.scopes[k]; sc != nil {
		return sc
	}
	seed := res.seedScope()
	sc := &scope{items: make(map[string]*entry, len(seed.items)), next: seed.next}
	for id, e := range seed.items {
		sc.items[id] = e
	}
	lv.scopes[k] = sc
	return sc
}

// scopeFor returns the collection at a concrete path to read: the session's own, else the
// seed's, shared by every session and never changed. The caller holds a read lock.
func (lv *live) scopeFor(res *Resource, path string) *scope {
	if sc := lv.scopes[scopeKey(res, path)]; sc != nil {
		return sc
	}
	return res.seedScope()
}

// seeded returns a new collection holding the resource's seed.
func seeded(res *Resource) *scope {
	sc := &scope{items: map[string]*entry{}, next: 1}
	for i, item := range res.seedItems() {
		id := res.idOf(item)
		if id == "" {
			id = strconv.Itoa(i + 1)
		}
		sc.items[id] = &entry{Seq: int64(i + 1), ID: id, Item: item}
		if n, err := strconv.ParseInt(id, 10, 64); err == nil && n >= sc.next {
			sc.next = n + 1
		}
	}
	return sc
}

// sorted returns the scope's items in creation order.
func (sc *scope) sorted() []*entry {
	out := make([]*entry, 0, len(sc.items))
	for _, e := range sc.items {
		if !e.Deleted {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b *entry) int {
		if a.Seq != b.Seq {
			return int(a.Seq - b.Seq)
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// lookup returns the item with id (nil when there is none), and whether the session
// deleted it.
func (sc *scope) lookup(id string) (*entry, bool) {
	e := sc.items[id]
	if e == nil {
		return nil, false
	}
	if e.Deleted {
		return nil, true
	}
	return e, false
}

// save returns the stored change that records e.
func save(res *Resource, path string, e *entry) state.Change {
	b, _ := json.Marshal(e)
	return state.Put(itemKey(res, path, e.ID), b)
}
