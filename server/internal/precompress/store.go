package precompress

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Store keeps compressed outputs by the hash of their input and their settings, shared by every
// checkout on the machine: a worktree or a branch switched back to finds the outputs another
// made. Every output taken from it is checked against its input before use (CheckBrotli,
// CheckGzip), so a damaged entry costs a compression, never wrong bytes.
type Store struct {
	// Dir is the store's folder; it is created when first written.
	Dir string
	// MaxAge is how long an entry unused stays; Prune removes older ones. Zero keeps them 14 days.
	MaxAge time.Duration
}

// DefaultStore returns the store in the user's cache folder ($XDG_CACHE_HOME/loupe/precompress,
// ~/.cache/loupe/precompress), or the folder LOUPE_PRECOMPRESS_CACHE names; nil when that
// variable is "off" or no cache folder is known.
func DefaultStore() *Store {
	dir := os.Getenv("LOUPE_PRECOMPRESS_CACHE")
	if dir == "off" {
		return nil
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "loupe", "precompress")
	}
	return &Store{Dir: dir}
}

// key names an output of input sum with settings s; ext is ".br" or ".gz".
func (st *Store) key(sum string, s Settings, ext string) string {
	return filepath.Join(st.Dir, sum+"."+strings.ReplaceAll(s.String(), " ", ".")+ext)
}

// Get returns the stored output, or false when there is none. A hit is marked used.
func (st *Store) Get(sum string, s Settings, ext string) ([]byte, bool) {
	if st == nil {
		return nil, false
	}
	path := st.key(sum, s, ext)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	now := time.Now()
	_ = os.Chtimes(path, now, now)
	return data, true
}

// Put stores an output.
func (st *Store) Put(sum string, s Settings, ext string, data []byte) error {
	if st == nil {
		return nil
	}
	if err := os.MkdirAll(st.Dir, 0o755); err != nil {
		return fmt.Errorf("creating the precompress cache: %w", err)
	}
	return writeFile(st.key(sum, s, ext), data)
}

// Prune removes the entries unused for longer than MaxAge.
func (st *Store) Prune() error {
	if st == nil {
		return nil
	}
	maxAge := st.MaxAge
	if maxAge == 0 {
		maxAge = 14 * 24 * time.Hour
	}
	entries, err := os.ReadDir(st.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the precompress cache: %w", err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || e.IsDir() || time.Since(info.ModTime()) < maxAge {
			continue
		}
		if err := os.Remove(filepath.Join(st.Dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("pruning the precompress cache: %w", err)
		}
	}
	return nil
}
