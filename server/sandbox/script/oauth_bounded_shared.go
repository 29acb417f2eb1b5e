package script

import (
	"encoding/hex"
	"time"
)

// BoundedTokenStore is a SharedTokenStore, keeping codes too, that holds the bounds of the
// authorization server's tables itself, across every process sharing it (replicas on
// server.database; server/internal/pgoauth implements it). Without it each replica would bound
// only what it issued, and N replicas would keep N times each cap (issue 29: no table an
// anonymous caller can fill).
//
// With it the process's tables are a cache: an entry they drop is dropped here only, never in
// the store (the store evicts by its own bounds, and another replica's tokens are not this
// one's to evict), and nothing is loaded at start: a token is read from the store at its use.
// The answered consent requests are kept in the store too, so that a consent form answered on
// one replica cannot be answered again on another (a second code for one request).
type BoundedTokenStore interface {
	SharedTokenStore
	SharedCodeStore
	// KeepGrant keeps a grant under its digest, owned by o, and in the same step forgets,
	// with their access tokens, the least recently used grants of o's owner past o.PerOwner
	// and of o's kind (protected or not) past o.Max: never a protected grant for an
	// unprotected one.
	KeepGrant(grant string, sealed []byte, o Ownership) error
	// KeepAccess keeps an access token under its digest with its grant's, unless the grant is
	// no longer kept, and forgets the grant's oldest access tokens past perGrant; the grant
	// counts as used.
	KeepAccess(grant, access string, sealed []byte, perGrant int) error
	// KeepCode keeps a sealed code under its digest until expires, owned by o, forgetting the
	// oldest codes of o's owner past o.PerOwner and of o's kind past o.Max.
	KeepCode(code string, sealed []byte, expires time.Time, o Ownership) error
	// AnswerConsent records that the consent request of this digest is answered, by o, until
	// expires. first is false when it was answered before, on any process: the form is not
	// answered twice. The oldest records of o's owner past o.PerOwner and of o's kind past
	// o.Max are forgotten.
	AnswerConsent(digest string, expires time.Time, o Ownership) (first bool, err error)
}

// Ownership is who owns a grant, a code or an answered consent in a BoundedTokenStore, and the
// bounds it is kept under.
type Ownership struct {
	// Owner is the per-owner bound's key: a signed-in user's sandbox session, or an anonymous
	// client's address.
	Owner string
	// Protected says Owner is signed in: such entries are never evicted for unprotected ones.
	Protected bool
	// PerOwner is how many entries of the kind one owner keeps.
	PerOwner int
	// Max is how many entries of the kind, protected or not as this one is, are kept in all.
	Max int
}

// boundedStore is the keeper's store when it holds the bounds; nil otherwise.
func (k *keeper) boundedStore() BoundedTokenStore {
	if k == nil || k.shared == nil {
		return nil
	}
	bs, _ := k.shared.(BoundedTokenStore)
	return bs
}

// ownership is by's Ownership under the bounds perOwner and maxLive.
func (by owner) ownership(perOwner int) Ownership {
	return Ownership{Owner: by.client, Protected: by.protected, PerOwner: perOwner, Max: maxLive}
}

// answer records the consent request of digest as answered by by until expires, in the store
// when it holds the bounds, else in the process's table; first is false when it was answered
// before. The caller holds authServer.mu.
func (t *tables) answer(digest [32]byte, by owner, expires time.Time) (first bool, err error) {
	if bs := t.keeper.boundedStore(); bs != nil {
		return bs.AnswerConsent(hex.EncodeToString(digest[:]), expires, by.ownership(4*perOwner))
	}
	if _, done := t.answered.Peek(digest); done {
		return false, nil
	}
	t.answered.Put(digest, struct{}{}, by.client, by.protected)
	return true, nil
}
