package script

import (
	"crypto/sha256"
	"fmt"
	"net/http"
)

// Versions are immutable and the API cannot delete them, so what they hold must be bounded:
// the store keeps each distinct source once (by its SHA-256) and refuses a version that would
// take the distinct content of all versions past maxVersionBytes.

// versionFiles returns files whose sources are the store's single copies where it holds them,
// and the sources new to the store (by hash). It changes nothing. The caller holds s.mu.
func (s *store) versionFiles(files []file) ([]file, map[[32]byte]string) {
	fresh := map[[32]byte]string{}
	out := cloneFiles(files)
	for i := range out {
		sum := sha256.Sum256([]byte(out[i].source))
		if kept, ok := s.blobs[sum]; ok {
			out[i].source = kept
			continue
		}
		fresh[sum] = out[i].source
	}
	return out, fresh
}

// fitVersion returns the 429 when the fresh sources would take the versions' content past
// maxVersionBytes. The caller holds s.mu.
func (s *store) fitVersion(fresh map[[32]byte]string) *apiError {
	added := 0
	for _, src := range fresh {
		added += len(src)
	}
	if s.versionBytes+added > s.maxVersionBytes {
		return &apiError{Error: errorStatus{Code: http.StatusTooManyRequests, Status: "RESOURCE_EXHAUSTED",
			Message: fmt.Sprintf("The sandbox keeps at most %s of version content and holds %s; this version adds %s. Make a version of smaller or unchanged files, or Reset the script sandbox.",
				mib(s.maxVersionBytes), mib(s.versionBytes), mib(added))}}
	}
	return nil
}

// keepBlobs adds the fresh sources to the store's single copies. The caller holds s.mu.
func (s *store) keepBlobs(fresh map[[32]byte]string) {
	for sum, src := range fresh {
		s.blobs[sum] = src
		s.versionBytes += len(src)
	}
}

// mib formats a byte count in MiB with one decimal.
func mib(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
