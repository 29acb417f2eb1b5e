package state

import (
	"slices"
	"strings"
	"sync"
)

// Memory is the in-memory Store: what the Loupe server uses without a data directory, and what
// the static explorer's in-browser sandboxes use. Nothing survives the process. The zero value
// is not ready; use NewMemory.
type Memory struct {
	mu     sync.Mutex
	data   map[string]map[string]map[string][]byte // session → api → key → value
	closed bool
}

// NewMemory returns an empty in-memory Store.
func NewMemory() *Memory { return &Memory{data: map[string]map[string]map[string][]byte{}} }

// Apply implements Store. It copies the values, so the caller may reuse them.
func (m *Memory) Apply(session, api string, changes []Change) error {
	if err := validate(session, api, changes); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	apis := m.data[session]
	if apis == nil {
		apis = map[string]map[string][]byte{}
		m.data[session] = apis
	}
	keys := apis[api]
	if keys == nil {
		keys = map[string][]byte{}
		apis[api] = keys
	}
	for _, c := range changes {
		if c.Value == nil {
			delete(keys, c.Key)
			continue
		}
		keys[c.Key] = slices.Clone(c.Value)
	}
	if len(keys) == 0 {
		delete(apis, api)
	}
	if len(apis) == 0 {
		delete(m.data, session)
	}
	return nil
}

// Load implements Store.
func (m *Memory) Load(session, api string) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	keys := m.data[session][api]
	out := make([]Entry, 0, len(keys))
	for k, v := range keys {
		out = append(out, Entry{Key: k, Value: slices.Clone(v)})
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// Reset implements Store.
func (m *Memory) Reset(session, api string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	delete(m.data[session], api)
	if len(m.data[session]) == 0 {
		delete(m.data, session)
	}
	return nil
}

// Drop implements Store.
func (m *Memory) Drop(session string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	delete(m.data, session)
	return nil
}

// Close implements Store.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.data = nil
	return nil
}

// ListSessions implements Lister.
func (m *Memory) ListSessions() ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	out := make([]string, 0, len(m.data))
	for s := range m.data {
		out = append(out, s)
	}
	return out, nil
}

// Sessions returns how many sessions hold changes (tests and metrics).
func (m *Memory) Sessions() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.data)
}
