package serverdb

import (
	"bytes"

	bolt "go.etcd.io/bbolt"
)

// Grants is oauth.GrantStore in the database: one sealed grant (encrypted by the oauth package
// under a key derived from the secret key) per user and API.
type Grants struct{ db *DB }

// Grants returns the users' OAuth grants.
func (d *DB) Grants() *Grants { return &Grants{db: d} }

// Put implements oauth.GrantStore.
func (g *Grants) Put(user, api string, sealed []byte) error {
	return wrap(g.db.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGrants).Put(grantKey(user, api), sealed)
	}))
}

// Get implements oauth.GrantStore: nil when there is none.
func (g *Grants) Get(user, api string) ([]byte, error) {
	var out []byte
	err := g.db.db.View(func(tx *bolt.Tx) error {
		out = bytes.Clone(tx.Bucket(bucketGrants).Get(grantKey(user, api)))
		return nil
	})
	return out, wrap(err)
}

// Delete implements oauth.GrantStore.
func (g *Grants) Delete(user, api string) error {
	return wrap(g.db.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGrants).Delete(grantKey(user, api))
	}))
}

// grantKey is the key of user's grant for api.
func grantKey(user, api string) []byte {
	return append(append([]byte(user), 0), api...)
}
