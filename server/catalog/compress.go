package catalog

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/andybalholm/brotli"
)

// encodings are a body's compressed forms. Brotli at its best quality takes most of a
// second for the catalog, so it runs in the background: until it is done, clients that
// accept br get gzip (made at once, in milliseconds), and no request waits for it.
type encodings struct {
	gz     []byte
	br     atomic.Pointer[[]byte]
	brDone chan struct{} // closed when br is set
}

// encodingsCache shares the encodings of identical bodies: a test suite builds many
// servers over the same content, and each would otherwise compress it again. It holds one
// entry per distinct catalog a process serves, which in practice is one.
var encodingsCache sync.Map // [sha256.Size]byte -> *encodings

// compressing counts the brotli compressions running in the background.
var compressing sync.WaitGroup

// WaitCompressed waits until the brotli compressions that catalogs started in the background
// have finished: they take about a second of CPU and tens of MB of memory each, which a
// measurement of the process's memory or CPU should not count.
func WaitCompressed() { compressing.Wait() }

// compress returns the encodings of body, made once per distinct body.
func compress(body []byte) *encodings {
	key := sha256.Sum256(body)
	if e, ok := encodingsCache.Load(key); ok {
		return e.(*encodings)
	}
	e := &encodings{gz: compressGzip(body), brDone: make(chan struct{})}
	if prev, loaded := encodingsCache.LoadOrStore(key, e); loaded {
		return prev.(*encodings)
	}
	compressing.Add(1)
	go func() {
		defer compressing.Done()
		br := compressBrotli(body)
		e.br.Store(&br)
		close(e.brDone)
		// Brotli's best quality works in tens of MB of window and hash tables, and loading
		// the catalog before it in more: one-off work whose freed memory the runtime would
		// otherwise keep for minutes (most of an idle server's RSS). Give it back now.
		debug.FreeOSMemory()
	}()
	return e
}

// compressBrotli compresses at the highest quality.
func compressBrotli(b []byte) []byte {
	var buf bytes.Buffer
	zw := brotli.NewWriterLevel(&buf, brotli.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

// compressGzip compresses at the highest level.
func compressGzip(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}
