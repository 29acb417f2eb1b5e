package state

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Limits bound the live sandbox sessions. The zero value of a field means its default.
type Limits struct {
	// Idle is how long a session may go without a request before its live state is evicted
	// (with a durable store its changes stay on disk and come back on its next request).
	// Default 30 minutes.
	Idle time.Duration
	// MaxSessions is how many sessions may be live at once; one more is refused with
	// ErrTooManySessions once the idle ones are evicted. Default 1000.
	MaxSessions int
	// MaxBytes bounds the bytes of stored changes (keys and values) of one session across
	// every API; a change past it is refused with ErrSessionFull. Default 4 MiB.
	MaxBytes int64
}

// Defaults of Limits.
const (
	DefaultIdle        = 30 * time.Minute
	DefaultMaxSessions = 1000
	DefaultMaxBytes    = 4 << 20
)

// withDefaults fills the zero fields.
func (l Limits) withDefaults() Limits {
	if l.Idle <= 0 {
		l.Idle = DefaultIdle
	}
	if l.MaxSessions <= 0 {
		l.MaxSessions = DefaultMaxSessions
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	return l
}

// The limits' errors; a LimitError wraps one of them (errors.Is).
var (
	ErrTooManySessions = errors.New("too many sandbox sessions")
	ErrSessionFull     = errors.New("sandbox session full")
)

// LimitError is a request refused by Limits. Sandboxes answer it in their API's own error
// shape, with Status and Message.
type LimitError struct {
	// Status is the HTTP status to answer: 429 for ErrTooManySessions (try later), 507 for
	// ErrSessionFull (the session must shrink).
	Status int
	// Message says what happened and what to do, for the user.
	Message string
	kind    error
}

// Error implements error.
func (e *LimitError) Error() string { return e.Message }

// Unwrap makes errors.Is(err, ErrTooManySessions) and ErrSessionFull work.
func (e *LimitError) Unwrap() error { return e.kind }

// tooMany is the error of a full registry.
func tooMany(max int) *LimitError {
	return &LimitError{Status: http.StatusTooManyRequests, kind: ErrTooManySessions, Message: fmt.Sprintf(
		"The sandbox holds as many sessions as it may (%d): try again when idle ones have expired, "+
			"or the operator raises server.sandbox.max_sessions.", max)}
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
