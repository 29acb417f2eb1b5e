package access

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// users is a users file: one "name:bcrypt-hash" line per user, as `htpasswd -B` writes it.
// Blank lines and lines starting with # are skipped.
type users struct {
	hashes map[string][]byte
	dummy  []byte // compared against for an unknown name
}

// dummyHashes are compared against when the name is unknown, one per bcrypt cost, so that a
// wrong name takes as long as a wrong password of the file's users (at their highest cost).
var dummyHashes sync.Map // cost → []byte

// dummyHash returns the dummy hash of cost.
func dummyHash(cost int) []byte {
	if h, ok := dummyHashes.Load(cost); ok {
		return h.([]byte)
	}
	h, _ := bcrypt.GenerateFromPassword([]byte("loupe-no-such-user"), cost)
	dummyHashes.Store(cost, h)
	return h
}

func readUsers(path string) (*users, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	u := &users{hashes: map[string][]byte{}}
	cost := bcrypt.MinCost
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, hash, ok := strings.Cut(line, ":")
		if !ok || name == "" {
			return nil, fmt.Errorf("%s line %d: expected name:bcrypt-hash", path, n)
		}
		c, err := bcrypt.Cost([]byte(hash))
		if err != nil {
			return nil, fmt.Errorf("%s line %d: the hash of %s is not bcrypt (create it with htpasswd -B)", path, n, name)
		}
		cost = max(cost, c)
		u.hashes[name] = []byte(hash)
	}
	if len(u.hashes) == 0 {
		return nil, fmt.Errorf("%s: no users", path)
	}
	u.dummy = dummyHash(cost)
	return u, nil
}

func (u *users) has(name string) bool {
	_, ok := u.hashes[name]
	return ok
}

// check reports whether the password is the user's.
func (u *users) check(name, password string) bool {
	hash, ok := u.hashes[name]
	if !ok {
		_ = bcrypt.CompareHashAndPassword(u.dummy, []byte(password))
		return false
	}
	return bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil
}
