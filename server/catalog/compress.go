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

// encodings are a body's compressed forms. Brotli at its best quality takes one to two
// seconds of CPU for the catalog, so it is made in the background, and only once a client
// that accepts br asks for the body (brotli): until it is done, such clients get gzip (made at
// once, in milliseconds), and no request waits for it. A server nobody asks, such as most of a
// test suite's, never spends that CPU.
type encodings struct {
	gz     []byte
	body   []byte // what brotli compresses; nil when the body is served as gzip only
	start  sync.Once
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
// have finished: they take a second or two of CPU and tens of MB of memory each, which a
// measurement of the process's memory or CPU should not count.
func WaitCompressed() { compressing.Wait() }

// compress returns the encodings of body, made once per distinct body: gzip at once, brotli
// when first asked for.
func compress(body []byte) *encodings {
	key := sha256.Sum256(body)
	if e, ok := encodingsCache.Load(key); ok {
		return e.(*encodings)
	}
	e := &encodings{gz: compressGzip(body), body: body, brDone: make(chan struct{})}
	if prev, loaded := encodingsCache.LoadOrStore(key, e); loaded {
		return prev.(*encodings)
	}
	return e
}

// brotli returns the brotli encoding when it is made. Otherwise it returns nil, and the first
// call starts making it in the background.
func (e *encodings) brotli() *[]byte {
	if br := e.br.Load(); br != nil || e.body == nil {
		return br
	}
	e.start.Do(func() {
		compressing.Add(1)
		go func() {
			defer compressing.Done()
			br := compressBrotli(e.body)
			e.br.Store(&br)
			close(e.brDone)
			// Brotli's best quality works in tens of MB of window and hash tables: one-off
			// work whose freed memory the runtime would otherwise keep for minutes (most of an
			// idle server's RSS). Give it back now.
			debug.FreeOSMemory()
		}()
	})
	return nil
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
