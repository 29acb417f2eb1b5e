package oauth

// With Options.SharedGrants, other replicas sign in, renew and sign out through the same
// GrantStore, so the grant this process holds in memory is only a cache of the store's: each
// lookup reads the store (one lookup by key) and keeps the memory grant only while the store
// still holds the very sealed bytes it was built from or last wrote (sealing is randomized, so
// any write by another replica changes them).

// lookupShared returns user's grant for api as the shared store holds it now; mem is the one
// in memory (nil: none). None in the store means signed out (on another replica): mem is
// dropped. Other bytes than mem's mean a new sign-in or a renewal elsewhere: a grant built
// from them replaces mem. When the store cannot be read (the database is away), mem is used.
func (s *Service) lookupShared(user, api string, mem *grant) *grant {
	if s.provider(api) == nil {
		return nil
	}
	sealed, err := s.opts.Grants.Get(user, api)
	if err != nil {
		s.opts.Logger.Error("oauth grant not read from the shared store; this replica's copy is used", "user", user, "api", api, "err", err)
		return mem
	}
	if mem != nil && sealed != nil && mem.isSealed(sealed) {
		return mem
	}
	g := s.open(user, api, sealed) // nil when none is kept, or it does not open
	s.mu.Lock()
	k := grantKey{user, api}
	if cur := s.grants[k]; cur != mem { // replaced meanwhile by another call (a sign-in here)
		s.mu.Unlock()
		if g != nil {
			g.release(s.opts.Secrets)
		}
		return cur
	}
	if g != nil {
		s.grants[k] = g
	} else {
		delete(s.grants, k)
	}
	s.mu.Unlock()
	if mem != nil {
		mem.release(s.opts.Secrets)
	}
	return g
}
