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
}

// dummyHash is compared against when the name is unknown, so a wrong name takes as long as a
// wrong password.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("loupe-no-such-user"), bcrypt.DefaultCost)
	return h
})

func readUsers(path string) (*users, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	u := &users{hashes: map[string][]byte{}}
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
		if _, err := bcrypt.Cost([]byte(hash)); err != nil {
			return nil, fmt.Errorf("%s line %d: the hash of %s is not bcrypt (create it with htpasswd -B)", path, n, name)
		}
		u.hashes[name] = []byte(hash)
	}
	if len(u.hashes) == 0 {
		return nil, fmt.Errorf("%s: no users", path)
	}
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
		_ = bcrypt.CompareHashAndPassword(dummyHash(), []byte(password))
		return false
	}
	return bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil
}
