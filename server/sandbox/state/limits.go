package state

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Limits bound the sandbox sessions. The zero value of a field means its default. No limit
// refuses a new session: past one, the least recently used anonymous session is evicted.
type Limits struct {
	// Idle is how long a session may go without a request before its live state is evicted
	// (with a durable store its changes stay on disk and come back on its next request).
	// Default 30 minutes.
	Idle time.Duration
	// MaxSessions is how many anonymous sessions may be live at once, and separately how many
	// signed-in users' (UserSession); one more evicts the least recently used of its kind.
	// Default 1000.
	MaxSessions int
	// MaxSessionsPerClient is how many live sessions one client address (clientip) may hold;
	// one more evicts that client's least recently used. Default 20.
	MaxSessionsPerClient int
	// MaxBytes bounds the bytes of stored changes (keys and values) of one session across
	// every API; a change past it is refused with ErrSessionFull. Default 4 MiB.
	MaxBytes int64
	// MaxTotalBytes bounds the bytes of stored changes of the live anonymous sessions together;
	// past it the least recently used are evicted. Default 256 MiB, and never below MaxBytes.
	MaxTotalBytes int64
	// MaxStored is how many anonymous sessions may keep stored changes in a durable store
	// (Options.DropEvicted false) while not live; one more forgets the least recently used
	// one's. One client keeps at most 10 times MaxSessionsPerClient. With a store the
	// replicas share (SharedBounds) both bounds hold across all of them. Default 10 times
	// MaxSessions.
	MaxStored int
}

// Defaults of Limits.
const (
	DefaultIdle                 = 30 * time.Minute
	DefaultMaxSessions          = 1000
	DefaultMaxSessionsPerClient = 20
	DefaultMaxBytes             = 4 << 20
	DefaultMaxTotalBytes        = 256 << 20
)

// withDefaults fills the zero fields.
func (l Limits) withDefaults() Limits {
	if l.Idle <= 0 {
		l.Idle = DefaultIdle
	}
	if l.MaxSessions <= 0 {
		l.MaxSessions = DefaultMaxSessions
	}
	if l.MaxSessionsPerClient <= 0 {
		l.MaxSessionsPerClient = DefaultMaxSessionsPerClient
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = DefaultMaxTotalBytes
	}
	l.MaxTotalBytes = max(l.MaxTotalBytes, l.MaxBytes)
	if l.MaxStored <= 0 {
		l.MaxStored = 10 * l.MaxSessions
	}
	return l
}

// ErrSessionFull is the error a LimitError wraps (errors.Is) when a change would take a
// session past Limits.MaxBytes.
var ErrSessionFull = errors.New("sandbox session full")

// LimitError is a request refused by Limits. Sandboxes answer it in their API's own error
// shape, with Status and Message.
type LimitError struct {
	// Status is the HTTP status to answer: 507 for ErrSessionFull (the session must shrink),
	// 503 for ErrUnavailable (the shared database is away), 409 for ErrConflict (another
	// replica changed the session at the same moment).
	Status int
	// Message says what happened and what to do, for the user.
	Message string
	kind    error
	cause   error // the Store's error behind ErrUnavailable or ErrConflict, for logs
}

// Error implements error.
func (e *LimitError) Error() string { return e.Message }

// Unwrap makes errors.Is(err, ErrSessionFull) (ErrUnavailable, ErrConflict) work, and
// reaches the Store's error behind the last two.
func (e *LimitError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

// full is the error of a change past a session's bytes.
func full(api string, max int64) *LimitError {
	return &LimitError{Status: http.StatusInsufficientStorage, kind: ErrSessionFull, Message: fmt.Sprintf(
		"Your sandbox session holds as many changes as it may (%d bytes): Reset the %s sandbox "+
			"(POST /sandbox/%s/_sandbox/reset, or Reset in Loupe), or the operator raises "+
			"server.sandbox.max_bytes.", max, api, api)}
}

// AsLimit returns the LimitError in err's chain, or nil.
func AsLimit(err error) *LimitError {
	var le *LimitError
	if errors.As(err, &le) {
		return le
	}
	return nil
}
