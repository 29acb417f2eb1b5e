// Package bounded is the table behind every server-side store a caller without an account can
// grow (sandbox sessions, login attempts, rate-limit buckets, the script sandbox's grants): each
// entry belongs to a client, and the table is bounded per client and in total. Past a bound it
// evicts the least recently used entry instead of refusing anyone: past a client's bound that
// client's own, past the total an anonymous one. Entries of signed-in owners (protected) are
// never evicted by anonymous ones; they have their own total, which only they fill.
//
// A Table is not safe for concurrent use: its owner holds its own lock around every call, and
// OnEvict runs under that lock. A store shared by several replicas (a database) would implement
// the same operations behind the owner's small interface; this package is the in-memory one.
package bounded

import (
	"container/list"
	"time"
)

// Options bound a Table. Zero fields mean what each says.
type Options[K comparable, V any] struct {
	// Max is how many anonymous entries the table holds in total; one more evicts the least
	// recently used anonymous entry. Required: a value below 1 means 1.
	Max int
	// PerClient is how many entries one client holds; one more evicts that client's least
	// recently used entry. Zero means no bound but Max (or MaxProtected).
	PerClient int
	// MaxProtected is how many protected entries the table holds in total; one more evicts the
	// least recently used protected entry. Zero means Max.
	MaxProtected int
	// MaxWeight bounds the sum of the anonymous entries' weights (SetWeight), such as the bytes
	// they hold; past it the least recently used anonymous entries are evicted. Zero means no
	// bound. The entry being weighed is evicted last, only when it alone is over the bound.
	MaxWeight int64
	// OnEvict is called with each entry a bound or Expire removes (not with those Delete or
	// Put's replacement remove), under the owner's lock: it must not call back into the table.
	// Nil means nothing is called.
	OnEvict func(key K, value V)
	// Now is the clock of the last use Expire reads; nil means time.Now.
	Now func() time.Time
}

// entry is one key's value and where it stands in its class's and its client's lists.
type entry[K comparable, V any] struct {
	key       K
	value     V
	client    string
	protected bool
	weight    int64
	used      time.Time
	inClass   *list.Element // in Table.anon or Table.prot, most recent at the front
	inClient  *list.Element // in the client's list, most recent at the front
}

// Table is a map bounded per client and in total, in least recently used order.
type Table[K comparable, V any] struct {
	opts    Options[K, V]
	items   map[K]*entry[K, V]
	anon    *list.List // anonymous entries, most recent first
	prot    *list.List // protected entries, most recent first
	clients map[string]*list.List
	weight  int64 // of the anonymous entries
	evicted int
}

// New returns an empty table bounded by opts.
func New[K comparable, V any](opts Options[K, V]) *Table[K, V] {
	opts.Max = max(opts.Max, 1)
	if opts.MaxProtected <= 0 {
		opts.MaxProtected = opts.Max
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Table[K, V]{opts: opts, items: map[K]*entry[K, V]{}, anon: list.New(), prot: list.New(), clients: map[string]*list.List{}}
}

// Put sets key to value, owned by client, and marks it used. protected says the owner is
// signed in. A key already present is replaced and moves to its new client and class. Put
// then evicts what the bounds ask for, never the entry it put unless a bound of 1 asks it to.
func (t *Table[K, V]) Put(key K, value V, client string, protected bool) {
	if e, ok := t.items[key]; ok {
		t.unlink(e)
	}
	if l := t.clients[client]; l != nil && t.opts.PerClient > 0 {
		for l.Len() >= t.opts.PerClient {
			t.evict(l.Back().Value.(*entry[K, V]))
		}
	}
	e := &entry[K, V]{key: key, value: value, client: client, protected: protected, used: t.opts.Now()}
	t.link(e)
	t.enforce(e)
}

// Get returns key's value and marks it used.
func (t *Table[K, V]) Get(key K) (V, bool) {
	e, ok := t.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	t.touch(e)
	return e.value, true
}

// Peek returns key's value without marking it used.
func (t *Table[K, V]) Peek(key K) (V, bool) {
	e, ok := t.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	return e.value, true
}

// Touch marks key used and reports whether it is present.
func (t *Table[K, V]) Touch(key K) bool {
	e, ok := t.items[key]
	if ok {
		t.touch(e)
	}
	return ok
}

// SetWeight sets key's weight (for Options.MaxWeight) and evicts other anonymous entries when
// the sum goes past the bound. It reports whether key is present.
func (t *Table[K, V]) SetWeight(key K, w int64) bool {
	e, ok := t.items[key]
	if !ok {
		return false
	}
	if !e.protected {
		t.weight += w - e.weight
	}
	e.weight = w
	t.enforce(e)
	return true
}

// Delete removes key and returns its value; OnEvict is not called.
func (t *Table[K, V]) Delete(key K) (V, bool) {
	e, ok := t.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	t.unlink(e)
	return e.value, true
}

// DeleteClient removes every entry of client and returns how many; OnEvict is not called.
func (t *Table[K, V]) DeleteClient(client string) int {
	l := t.clients[client]
	if l == nil {
		return 0
	}
	n := l.Len()
	for l.Len() > 0 {
		t.unlink(l.Front().Value.(*entry[K, V]))
	}
	return n
}

// Expire evicts the entries not used for longer than idle, calling OnEvict, and returns how
// many it evicted.
func (t *Table[K, V]) Expire(idle time.Duration) int {
	cutoff := t.opts.Now().Add(-idle)
	n := 0
	for _, l := range []*list.List{t.anon, t.prot} {
		for l.Len() > 0 {
			e := l.Back().Value.(*entry[K, V])
			if e.used.After(cutoff) {
				break
			}
			t.evict(e)
			n++
		}
	}
	return n
}

// Range calls f for each entry, most recently used first, anonymous then protected, until f
// returns false. f must not change the table.
func (t *Table[K, V]) Range(f func(key K, value V) bool) {
	for _, l := range []*list.List{t.anon, t.prot} {
		for el := l.Front(); el != nil; el = el.Next() {
			e := el.Value.(*entry[K, V])
			if !f(e.key, e.value) {
				return
			}
		}
	}
}

// Stats is what a table holds, for tests and logs.
type Stats struct {
	// Anonymous and Protected count the entries of each class; Clients the clients holding any.
	Anonymous, Protected, Clients int
	// Weight is the sum of the anonymous entries' weights.
	Weight int64
	// Evicted counts the entries the bounds and Expire removed since New.
	Evicted int
}

// Stats returns what the table holds.
func (t *Table[K, V]) Stats() Stats {
	return Stats{Anonymous: t.anon.Len(), Protected: t.prot.Len(), Clients: len(t.clients), Weight: t.weight, Evicted: t.evicted}
}

// Len returns how many entries the table holds.
func (t *Table[K, V]) Len() int { return len(t.items) }

// ClientLen returns how many entries client holds.
func (t *Table[K, V]) ClientLen(client string) int {
	if l := t.clients[client]; l != nil {
		return l.Len()
	}
	return 0
}

// link adds e at the front of its lists.
func (t *Table[K, V]) link(e *entry[K, V]) {
	t.items[e.key] = e
	if e.protected {
		e.inClass = t.prot.PushFront(e)
	} else {
		e.inClass = t.anon.PushFront(e)
		t.weight += e.weight
	}
	l := t.clients[e.client]
	if l == nil {
		l = list.New()
		t.clients[e.client] = l
	}
	e.inClient = l.PushFront(e)
}

// unlink removes e from the map and its lists.
func (t *Table[K, V]) unlink(e *entry[K, V]) {
	delete(t.items, e.key)
	if e.protected {
		t.prot.Remove(e.inClass)
	} else {
		t.anon.Remove(e.inClass)
		t.weight -= e.weight
	}
	if l := t.clients[e.client]; l != nil {
		l.Remove(e.inClient)
		if l.Len() == 0 {
			delete(t.clients, e.client)
		}
	}
}

// evict removes e and tells the owner.
func (t *Table[K, V]) evict(e *entry[K, V]) {
	t.unlink(e)
	t.evicted++
	if t.opts.OnEvict != nil {
		t.opts.OnEvict(e.key, e.value)
	}
}

// touch marks e used.
func (t *Table[K, V]) touch(e *entry[K, V]) {
	e.used = t.opts.Now()
	if e.protected {
		t.prot.MoveToFront(e.inClass)
	} else {
		t.anon.MoveToFront(e.inClass)
	}
	t.clients[e.client].MoveToFront(e.inClient)
}

// enforce evicts the least recently used entries of e's class while the class is over its
// bounds, e last.
func (t *Table[K, V]) enforce(e *entry[K, V]) {
	if e.protected {
		for t.prot.Len() > t.opts.MaxProtected {
			t.evict(t.oldest(t.prot, e))
		}
		return
	}
	for t.anon.Len() > t.opts.Max || (t.opts.MaxWeight > 0 && t.weight > t.opts.MaxWeight && t.anon.Len() > 0) {
		t.evict(t.oldest(t.anon, e))
	}
}

// oldest is l's least recently used entry other than keep, or keep when it is alone.
func (t *Table[K, V]) oldest(l *list.List, keep *entry[K, V]) *entry[K, V] {
	for el := l.Back(); el != nil; el = el.Prev() {
		if e := el.Value.(*entry[K, V]); e != keep {
			return e
		}
	}
	return keep
}
