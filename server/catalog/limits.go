package catalog

import (
	"fmt"
	"io"
	"os"
	"time"

	"loupe/app/catalog"
)

// withDefaults fills the zero limits with their defaults.
func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxDocument
	}
	if l.BuildTimeout <= 0 {
		l.BuildTimeout = DefaultBuildTimeout
	}
	if l.MaxBytesKey == "" {
		l.MaxBytesKey = "server.limits.max_document"
	}
	if l.BuildTimeoutKey == "" {
		l.BuildTimeoutKey = "server.limits.document_build_timeout"
	}
	return l
}

// readLimited reads a document, refusing one over the size limit before reading it: a file
// that grows while it is read is cut at the limit and refused too.
func readLimited(path string, lim Limits) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading the OpenAPI document: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading the OpenAPI document: %w", err)
	}
	if st.Size() > lim.MaxBytes {
		return nil, tooLarge(path, st.Size(), lim)
	}
	data, err := io.ReadAll(io.LimitReader(f, lim.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the OpenAPI document: %w", err)
	}
	if int64(len(data)) > lim.MaxBytes {
		return nil, tooLarge(path, int64(len(data)), lim)
	}
	return data, nil
}

func tooLarge(path string, size int64, lim Limits) error {
	return fmt.Errorf("%s is %.1f MB, more than %s allows (%.1f MB): a document this large needs gigabytes of memory to load; raise %s (in bytes) to load it",
		path, float64(size)/1e6, lim.MaxBytesKey, float64(lim.MaxBytes)/1e6, lim.MaxBytesKey)
}

// compileWithin compiles a document of your own, giving up when it takes longer than the
// build time limit. The compilation that was given up runs on in the background until it
// ends; the start has failed by then.
func compileWithin(slug, path string, data []byte, lim Limits) (catalog.API, *Built, error) {
	type result struct {
		api   catalog.API
		built *Built
		err   error
	}
	done := make(chan result, 1)
	go func() {
		api, built, err := compileOwn(slug, path, data)
		done <- result{api, built, err}
	}()
	timer := time.NewTimer(lim.BuildTimeout)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.api, r.built, r.err
	case <-timer.C:
		return catalog.API{}, nil, fmt.Errorf("%s: building its catalog took longer than %s allows (%s); raise %s to wait longer", path, lim.BuildTimeoutKey, lim.BuildTimeout, lim.BuildTimeoutKey)
	}
}
