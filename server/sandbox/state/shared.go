package state

import (
	"errors"
	"fmt"
	"net/http"
)

// Versioned is a Store that several Loupe processes (replicas) share, such as pgstore on
// PostgreSQL. Each (session, api) has a generation: 0 while it holds no change, and a new
// number, never used before, at every Apply, Reset or Drop that touches it. The registry keeps
// the generation each live state was built at and checks it before serving that state (one
// cheap query), so that a change acknowledged by another process is seen by the very next
// request here; it applies a change only at the generation the caller's state was built at, so
// that no change is computed from a stale state.
type Versioned interface {
	Store
	// Generation returns the current generation of (session, api).
	Generation(session, api string) (int64, error)
	// LoadAt is Load, and the generation the entries are at (one consistent read).
	LoadAt(session, api string) ([]Entry, int64, error)
	// ApplyAt is Apply, done only when (session, api) is still at generation at: else nothing
	// is written and the error is ErrConflict. It returns the new generation.
	ApplyAt(session, api string, at int64, changes []Change) (int64, error)
}

// ErrUnavailable is wrapped by a Store's errors when its database cannot be reached or used
// right now (it went away, refuses connections, is shutting down). Nothing was written. The
// registry turns it into a *LimitError with status 503 that the sandboxes answer in their own
// error shape.
var ErrUnavailable = errors.New("the sandbox state database is unavailable")

// ErrConflict is Versioned.ApplyAt's error when another process changed (session, api) since the
// caller's state was read. The registry turns it into a *LimitError with status 409 after
// dropping the stale live state.
var ErrConflict = errors.New("the sandbox state changed meanwhile")

// storeError is err, from the Store, as the registry answers it: ErrUnavailable and
// ErrConflict as a *LimitError whose Message says what to do, anything else wrapped with what.
func storeError(api, what string, err error) error {
	switch {
	case errors.Is(err, ErrUnavailable):
		return &LimitError{Status: http.StatusServiceUnavailable, kind: ErrUnavailable, cause: err, Message: fmt.Sprintf(
			"The %s sandbox cannot reach its state database right now, so it answers nothing rather than a "+
				"stale or lost state: nothing was changed. Try again in a moment; if it lasts, the operator "+
				"checks that PostgreSQL runs at the address of server.database (LOUPE_DATABASE_URL).", api)}
	case errors.Is(err, ErrConflict):
		return &LimitError{Status: http.StatusConflict, kind: ErrConflict, cause: err, Message: fmt.Sprintf(
			"Your %s sandbox was changed by another request at the same moment (on another Loupe "+
				"replica), so this change was not saved: send it again; it will apply to the state "+
				"as it is now.", api)}
	}
	return fmt.Errorf("%s the %s sandbox state: %w", what, api, err)
}
