package proxy

import (
	"slices"
	"sync"
)

// SecretSet holds secrets that come and go while the proxy serves, such as the OAuth 2.0
// access and refresh tokens of signed-in users (server/oauth). The proxy masks them, in every
// encoded form, in every response and log line, like the configured credentials. It is safe
// for concurrent use; the zero value is an empty set.
type SecretSet struct {
	mu       sync.Mutex
	vals     map[string]int // value → how many holders added it
	onChange []func()
}

// Add registers secrets; each Add of a value needs its own Remove.
func (s *SecretSet) Add(secrets ...string) {
	s.mu.Lock()
	if s.vals == nil {
		s.vals = map[string]int{}
	}
	for _, v := range secrets {
		if v != "" {
			s.vals[v]++
		}
	}
	fs := slices.Clone(s.onChange)
	s.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// Remove forgets secrets added once each.
func (s *SecretSet) Remove(secrets ...string) {
	s.mu.Lock()
	for _, v := range secrets {
		if n := s.vals[v]; n > 1 {
			s.vals[v] = n - 1
		} else {
			delete(s.vals, v)
		}
	}
	fs := slices.Clone(s.onChange)
	s.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// Values lists the secrets held, in no particular order.
func (s *SecretSet) Values() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.vals))
	for v := range s.vals {
		out = append(out, v)
	}
	return out
}

// watch calls f after every change.
func (s *SecretSet) watch(f func()) {
	s.mu.Lock()
	s.onChange = append(s.onChange, f)
	s.mu.Unlock()
}

// masker returns the masker of the configured secrets and the set's, as last built.
func (p *Proxy) masker() *masker { return p.mask.Load() }

// rebuildMasker builds the masker again after the configured secrets or the set changed.
func (p *Proxy) rebuildMasker() {
	p.maskMu.Lock()
	defer p.maskMu.Unlock()
	secrets := slices.Clone(p.static)
	if p.cfg.Secrets != nil {
		secrets = append(secrets, p.cfg.Secrets.Values()...)
	}
	p.mask.Store(newMasker(secrets))
}
