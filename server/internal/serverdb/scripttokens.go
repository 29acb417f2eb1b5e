package serverdb

import (
	"bytes"

	bolt "go.etcd.io/bbolt"
)

// ScriptTokens is script.TokenStore in the database: a bucket per grant (by its digest),
// holding the sealed grant under "g" and each sealed access token under "a" and its digest,
// so that revoking a grant drops its access tokens at once.
type ScriptTokens struct{ db *DB }

// ScriptTokens returns the script sandbox's issued grants and access tokens.
func (d *DB) ScriptTokens() *ScriptTokens { return &ScriptTokens{db: d} }

var grantValue = []byte("g")

// PutGrant implements script.TokenStore.
func (s *ScriptTokens) PutGrant(grant string, sealed []byte) error {
	return wrap(s.db.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.Bucket(bucketScript).CreateBucketIfNotExists([]byte(grant))
		if err != nil {
			return err
		}
		return b.Put(grantValue, sealed)
	}))
}

// PutAccess implements script.TokenStore. An access token of a grant not kept (revoked
// meanwhile) is not kept either.
func (s *ScriptTokens) PutAccess(grant, access string, sealed []byte) error {
	return wrap(s.db.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketScript).Bucket([]byte(grant))
		if b == nil {
			return nil
		}
		return b.Put(append([]byte("a"), access...), sealed)
	}))
}

// DeleteGrant implements script.TokenStore.
func (s *ScriptTokens) DeleteGrant(grant string) error {
	return wrap(s.db.db.Update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketScript).Bucket([]byte(grant)) == nil {
			return nil
		}
		return tx.Bucket(bucketScript).DeleteBucket([]byte(grant))
	}))
}

// DeleteAccess implements script.TokenStore.
func (s *ScriptTokens) DeleteAccess(grant, access string) error {
	return wrap(s.db.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketScript).Bucket([]byte(grant))
		if b == nil {
			return nil
		}
		return b.Delete(append([]byte("a"), access...))
	}))
}

// Load implements script.TokenStore.
func (s *ScriptTokens) Load(f func(grant string, sealed []byte, access map[string][]byte)) error {
	return wrap(s.db.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketScript).ForEachBucket(func(name []byte) error {
			b := tx.Bucket(bucketScript).Bucket(name)
			access := map[string][]byte{}
			err := b.ForEach(func(k, v []byte) error {
				if bytes.HasPrefix(k, []byte("a")) {
					access[string(k[1:])] = bytes.Clone(v)
				}
				return nil
			})
			if err != nil {
				return err
			}
			f(string(name), bytes.Clone(b.Get(grantValue)), access)
			return nil
		})
	}))
}
