package precompress

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ManifestName is the manifest's file name, beside the files it describes. server/site does not
// serve it (it serves only the asset types it knows).
const ManifestName = "precompress.json"

// Manifest records, for each file of a folder, what its .br and .gz were made from.
type Manifest struct {
	// Files maps a file's name (such as "app.wasm") to its entry.
	Files map[string]Entry `json:"files"`
}

// Entry describes one file's outputs.
type Entry struct {
	// SHA256 is the hex SHA-256 of the file the outputs were made from.
	SHA256 string `json:"sha256"`
	// Settings are the encoder settings the outputs were made with.
	Settings Settings `json:"settings"`
	// BrotliSHA256 and GzipSHA256 are the hex SHA-256 of FILE.br and FILE.gz as written.
	BrotliSHA256 string `json:"br_sha256"`
	GzipSHA256   string `json:"gz_sha256"`
	// Size, BrotliSize and GzipSize are the sizes in bytes of the file and its outputs.
	Size       int `json:"size"`
	BrotliSize int `json:"br_size"`
	GzipSize   int `json:"gz_size"`
}

// Sum returns the hex SHA-256 of b.
func Sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// ReadManifest reads dir's manifest; a folder without one has an empty manifest.
func ReadManifest(dir string) (*Manifest, error) {
	m := &Manifest{Files: map[string]Entry{}}
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the precompress manifest: %w", err)
	}
	if err := json.Unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("reading the precompress manifest %s: %w", filepath.Join(dir, ManifestName), err)
	}
	if m.Files == nil {
		m.Files = map[string]Entry{}
	}
	return m, nil
}

// Write writes the manifest to dir, replacing the previous one whole.
func (m *Manifest) Write(dir string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the precompress manifest: %w", err)
	}
	return writeFile(filepath.Join(dir, ManifestName), append(data, '\n'))
}

// Current reports whether the outputs of the file at path, whose content hashes to sum, are
// the ones e describes for these settings, as they are on disk now.
func (e Entry) Current(path, sum string, s Settings) bool {
	if e.SHA256 != sum || e.Settings != s {
		return false
	}
	for ext, want := range map[string]string{".br": e.BrotliSHA256, ".gz": e.GzipSHA256} {
		data, err := os.ReadFile(path + ext)
		if err != nil || Sum(data) != want {
			return false
		}
	}
	return true
}

// writeFile writes data to path through a temporary file renamed into place, so that an
// interrupted run leaves the previous file or the new one, never a part.
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
