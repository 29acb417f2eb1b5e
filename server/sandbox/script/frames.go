package script

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"sync"
	"time"
)

// frameStore holds the HTML of web app answers for the frames that show them, under
// unguessable tokens, for a few minutes (a reload of the frame shows it again), within a bound
// of entries and bytes: the oldest go first.
type frameStore struct {
	mu      sync.Mutex
	ttl     time.Duration
	max     int // entries
	maxSize int // bytes of HTML
	size    int
	order   []string
	byToken map[string]frameEntry
}

// frameEntry is one frame's HTML and when it expires.
type frameEntry struct {
	html    string
	expires time.Time
}

// newFrameStore returns a store of frames for ttl, at most max of them and maxSize bytes.
func newFrameStore(ttl time.Duration, max, maxSize int) *frameStore {
	return &frameStore{ttl: ttl, max: max, maxSize: maxSize, byToken: map[string]frameEntry{}}
}

// put keeps html and returns its token.
func (f *frameStore) put(html string) string {
	var b [18]byte
	_, _ = rand.Read(b[:])
	token := base64.RawURLEncoding.EncodeToString(b[:])
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	for len(f.order) > 0 {
		first := f.byToken[f.order[0]]
		if len(f.order) < f.max && f.size+len(html) <= f.maxSize && first.expires.After(now) {
			break
		}
		f.size -= len(first.html)
		delete(f.byToken, f.order[0])
		f.order = f.order[1:]
	}
	f.byToken[token] = frameEntry{html: html, expires: now.Add(f.ttl)}
	f.order = append(f.order, token)
	f.size += len(html)
	return token
}

// serve answers a frame's HTML, in a sandbox with no origin (frameCSP).
func (f *frameStore) serve(w http.ResponseWriter, token string) {
	f.mu.Lock()
	e, ok := f.byToken[token]
	f.mu.Unlock()
	if !ok || time.Now().After(e.expires) {
		webAppError(w, http.StatusNotFound, "This web app page has expired.", "Open the web app's URL again.")
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Security-Policy", frameCSP)
	hdr.Set("X-Frame-Options", "SAMEORIGIN")
	hdr.Set("Content-Type", "text/html; charset=utf-8")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")
	_, _ = w.Write([]byte(e.html))
}
