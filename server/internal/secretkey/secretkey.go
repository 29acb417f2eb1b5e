// Package secretkey is Loupe's one secret key, from which every key the server uses is derived
// (HKDF-SHA256, RFC 5869, with a purpose label each): the seal of OAuth sign-ins in progress,
// the script sandbox's consent forms and tokens, the device cookies, the encryption of OAuth
// grants at rest. Replicas that share the key accept each other's cookies and tokens; a single
// process that is given none makes one and keeps it in its data directory, so a restart keeps
// them too.
//
// Where the key comes from, first found:
//
//   - LOUPE_SECRET_KEY, the key itself;
//   - server.secret_key, the path of a file holding it;
//   - the file secret-key in the data directory, made on the first start (32 random bytes,
//     base64url, mode 0600);
//   - with no data directory, a key made at start and kept in memory: a restart changes it.
//
// A key is its bytes, surrounding white space trimmed, at least MinLength of them.
package secretkey

import (
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// MinLength is the shortest key accepted, in bytes: 32 characters of base64 or hex carry at
// least 128 random bits.
const MinLength = 32

// FileName is the generated key's file in the data directory.
const FileName = "secret-key"

// makeHint says how to make a key, for messages.
const makeHint = "make one with: openssl rand -base64 48"

// Key is the secret key. Its zero value is not usable; use Load or Random.
type Key struct{ material []byte }

// Derive returns the 32-byte key for purpose, a label unique to each use (such as
// "loupe/oauth/state-cookie/v1"): the same key and purpose give the same bytes in every
// process.
func (k Key) Derive(purpose string) []byte {
	if len(k.material) == 0 {
		panic("secretkey: Derive on a zero Key")
	}
	out, err := hkdf.Key(sha256.New, k.material, nil, purpose, 32)
	if err != nil {
		panic("secretkey: " + err.Error()) // 32 bytes of SHA-256 HKDF cannot fail
	}
	return out
}

// Random returns a new key that lives in memory only.
func Random() Key {
	return Key{material: []byte(newKeyText())}
}

// Options says where to look for the key.
type Options struct {
	// Value is the key itself (LOUPE_SECRET_KEY). Empty means unset.
	Value string
	// File is the path of a file holding the key (server.secret_key). Empty means unset.
	File string
	// DataDir is the data directory (server.data_dir, -data), where a key is made and kept
	// when neither Value nor File is set. Empty means in memory.
	DataDir string
}

// Load returns the key and says where it came from, for the start log (never the key). An
// unreadable or too short key is an error that says what to fix.
func Load(o Options) (Key, string, error) {
	switch {
	case o.Value != "":
		k, err := parse([]byte(o.Value))
		if err != nil {
			return Key{}, "", fmt.Errorf("LOUPE_SECRET_KEY: %w", err)
		}
		return k, "LOUPE_SECRET_KEY", nil
	case o.File != "":
		k, err := readFile(o.File)
		if err != nil {
			return Key{}, "", fmt.Errorf("server.secret_key: %w", err)
		}
		return k, "server.secret_key " + o.File, nil
	case o.DataDir != "":
		path := filepath.Join(o.DataDir, FileName)
		k, made, err := loadOrMake(o.DataDir, path)
		if err != nil {
			return Key{}, "", fmt.Errorf("server.data_dir: the secret key: %w", err)
		}
		if made {
			return k, "made and kept in " + path, nil
		}
		return k, path, nil
	}
	return Random(), "made at start, in memory: a restart changes it (see server.secret_key, or give -data)", nil
}

// parse checks a key's text.
func parse(b []byte) (Key, error) {
	s := strings.TrimSpace(string(b))
	if len(s) < MinLength {
		return Key{}, fmt.Errorf("the key is %d bytes long; it must be at least %d (%s)", len(s), MinLength, makeHint)
	}
	return Key{material: []byte(s)}, nil
}

// readFile reads and checks the key in path.
func readFile(path string) (Key, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Key{}, fmt.Errorf("reading the key file: %w (give a readable file that holds the key; %s > FILE)", err, makeHint)
	}
	k, err := parse(b)
	if err != nil {
		return Key{}, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// loadOrMake reads the key kept in path, or makes one there: written whole to a temporary
// file, synced, then linked to path, which fails if another process made it first (then its
// key is read). made says whether this call made it.
func loadOrMake(dir, path string) (Key, bool, error) {
	if k, err := readFile(path); err == nil {
		return k, false, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return Key{}, false, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Key{}, false, fmt.Errorf("creating the data directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, FileName+".*.tmp") // mode 0600
	if err != nil {
		return Key{}, false, fmt.Errorf("making the key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	text := newKeyText()
	_, err = tmp.WriteString(text + "\n")
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Key{}, false, fmt.Errorf("writing the key file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, os.ErrExist) {
		k, err := readFile(path) // another process made it first
		return k, false, err
	} else if err != nil {
		return Key{}, false, fmt.Errorf("keeping the key file: %w", err)
	}
	if d, err := os.Open(dir); err == nil { // the new name survives a power cut
		_ = d.Sync()
		d.Close()
	}
	return Key{material: []byte(text)}, true, nil
}

// newKeyText is 32 random bytes, base64url.
func newKeyText() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b)
}
