package script

import (
	"crypto/sha256"
	"fmt"
	"net/http"
)

// Versions are immutable and the API cannot delete them, so what they hold must be bounded:
// the store keeps each distinct source once (by its SHA-256) and refuses a version that would
// take the distinct content of all versions past maxVersionBytes.

// keepVersionFiles returns files whose sources are the store's single copies, adding the new
// ones to the versions' content; or the 429 when they would not fit. The caller holds s.mu.
func (s *store) keepVersionFiles(files []file) ([]file, *apiError) {
	added := 0
	fresh := map[[32]byte]bool{}
	for _, f := range files {
		sum := sha256.Sum256([]byte(f.source))
		if _, ok := s.blobs[sum]; !ok && !fresh[sum] {
			fresh[sum] = true
			added += len(f.source)
		}
	}
	if s.versionBytes+added > s.maxVersionBytes {
		return nil, &apiError{Error: errorStatus{Code: http.StatusTooManyRequests, Status: "RESOURCE_EXHAUSTED",
			Message: fmt.Sprintf("The sandbox keeps at most %s of version content and holds %s; this version adds %s. Make a version of smaller or unchanged files, or restart the sandbox.",
				mib(s.maxVersionBytes), mib(s.versionBytes), mib(added))}}
	}
	out := cloneFiles(files)
	for i := range out {
		sum := sha256.Sum256([]byte(out[i].source))
		if kept, ok := s.blobs[sum]; ok {
			out[i].source = kept
			continue
		}
		s.blobs[sum] = out[i].source
	}
	s.versionBytes += added
	return out, nil
}

// mib formats a byte count in MiB with one decimal.
func mib(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
