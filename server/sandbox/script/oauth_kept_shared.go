package script

// SharedTokenStore is a TokenStore that other processes write too (replicas on
// server.database). The authorization server then holds its tables of grants and access
// tokens as a cache of the store's: a token it does not hold is read from the store, and one it
// holds is checked to be still kept there at each use (one lookup by digest), so that a token
// issued on another replica is accepted here at the next request and one revoked there is
// refused here; nothing is read at start. Without it (a TokenStore only this process writes),
// the tables are read from the store once, at start.
type SharedTokenStore interface {
	TokenStore
	// GetGrant returns the sealed grant kept under its digest; nil (and no error) when none.
	GetGrant(grant string) ([]byte, error)
	// GetAccess returns the sealed access token kept under its digest, with its grant's
	// digest; nil (and no error) when none, or its grant is no longer kept.
	GetAccess(access string) (grant string, sealed []byte, err error)
}

// findGrant returns refresh token rt's grant, marked used when use. With a SharedTokenStore,
// the store says whether it is still kept (none: forgotten here too, with its access tokens)
// and a grant issued elsewhere is loaded; when the store cannot be read, the tables answer.
// The caller holds authServer.mu.
func (t *tables) findGrant(rt string, use bool) (*grant, bool) {
	get := t.refresh.Peek
	if use {
		get = t.refresh.Get
	}
	k := t.keeper
	if k == nil || k.shared == nil || rt == "" {
		return get(rt)
	}
	sealed, err := k.shared.GetGrant(tokenDigest(rt))
	switch {
	case err != nil:
		k.log.Error("script sandbox: the shared token store was not read; this replica's tables answer", "err", err)
		return get(rt)
	case sealed == nil: // never issued, or revoked (on any replica)
		if _, ok := t.refresh.Delete(rt); ok {
			t.access.DeleteClient(rt)
		}
		return nil, false
	}
	if g, ok := get(rt); ok {
		return g, true
	}
	var kg keptGrant
	if k.sealer.Open(string(sealed), maxKept, &kg) != nil || kg.Token != rt {
		return nil, false
	}
	g := &grant{client: kg.Client, account: kg.Account, scopes: kg.Scopes, issued: kg.Issued}
	t.refresh.Put(rt, g, kg.Owner, kg.Protected)
	return g, true
}

// findAccess returns access token tok. With a SharedTokenStore, the store says whether it is
// still kept (none: forgotten here too) and one issued elsewhere is loaded; when the store
// cannot be read, the tables answer. The caller holds authServer.mu.
func (t *tables) findAccess(tok string) (*accessToken, bool) {
	k := t.keeper
	if k == nil || k.shared == nil || tok == "" {
		return t.access.Peek(tok)
	}
	gd, sealed, err := k.shared.GetAccess(tokenDigest(tok))
	switch {
	case err != nil:
		k.log.Error("script sandbox: the shared token store was not read; this replica's tables answer", "err", err)
		return t.access.Peek(tok)
	case sealed == nil: // never issued, revoked or expired (on any replica)
		t.access.Delete(tok)
		return nil, false
	}
	if at, ok := t.access.Peek(tok); ok {
		return at, true
	}
	var a keptAccess
	if k.sealer.Open(string(sealed), maxKept, &a) != nil || a.Token != tok || tokenDigest(a.Refresh) != gd {
		return nil, false
	}
	at := &accessToken{grant: grant{client: a.Client, account: a.Account, scopes: a.Scopes, issued: a.Issued},
		expires: a.Expires, refresh: a.Refresh}
	t.access.Put(tok, at, a.Refresh, a.Protected)
	return at, true
}
