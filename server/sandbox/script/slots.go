package script

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
)

// SharedSlots bounds one user's runs across every replica (server/internal/pgslots keeps them
// in the shared database). Take takes one of user's slots, or returns ok false when they are
// all held; release gives it back. An error means the bound could not be checked: the run is
// refused with 503.
type SharedSlots interface {
	Take(ctx context.Context, user string) (release func(), ok bool, err error)
	// PerUser is how many slots one user may hold, for the 429's message.
	PerUser() int
}

// runSlots bounds the runs going on: at most max in the whole server, at most perUser of one
// user (sandbox session), so that one user's runs cannot take every slot from the others.
type runSlots struct {
	mu      sync.Mutex
	max     int
	perUser int
	total   int
	users   map[string]int
	shared  SharedSlots // when set, it holds the per-user bound instead of users
}

// RunBounds returns the bounds Options.MaxRuns and Options.MaxRunsPerUser give: max runs at
// once (0: 4), perUser of them for one user (0: half of max, rounded up, and never all of
// them when max is more than one), so that a server sizing SharedSlots uses the same figures.
func RunBounds(maxRuns, perUser int) (max, userMax int) {
	max = or(maxRuns, defaultMaxRuns)
	if perUser <= 0 {
		perUser = (max + 1) / 2
		if perUser == max && max > 1 {
			perUser = max - 1
		}
	}
	return max, min(perUser, max)
}

// newRunSlots returns slots for max runs, perUser of them for one user (RunBounds).
func newRunSlots(max, perUser int) *runSlots {
	max, perUser = RunBounds(max, perUser)
	return &runSlots{max: max, perUser: perUser, users: map[string]int{}}
}

// take takes a slot for user, or returns the 429 that says which bound is reached; release
// gives the slot back. With shared slots, the server's bound is taken here and the user's
// across replicas.
func (s *runSlots) take(ctx context.Context, user string) (release func(), e *apiError) {
	if s.shared != nil {
		return s.takeShared(ctx, user)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.total >= s.max:
		return nil, &apiError{Error: errorStatus{Code: http.StatusTooManyRequests, Status: "RESOURCE_EXHAUSTED",
			Message: fmt.Sprintf("Too many simultaneous invocations: the sandbox runs at most %d scripts at once. Try again when one has finished.", s.max)}}
	case s.users[user] >= s.perUser:
		return nil, &apiError{Error: errorStatus{Code: http.StatusTooManyRequests, Status: "RESOURCE_EXHAUSTED",
			Message: fmt.Sprintf("Too many simultaneous invocations: the sandbox runs at most %d of one user's scripts at once. Try again when one of yours has finished.", s.perUser)}}
	}
	s.total++
	s.users[user]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.total--
			if s.users[user]--; s.users[user] <= 0 {
				delete(s.users, user)
			}
		})
	}, nil
}

// takeShared takes one of the server's slots here, then one of user's from the shared slots.
func (s *runSlots) takeShared(ctx context.Context, user string) (release func(), e *apiError) {
	s.mu.Lock()
	if s.total >= s.max {
		s.mu.Unlock()
		return nil, &apiError{Error: errorStatus{Code: http.StatusTooManyRequests, Status: "RESOURCE_EXHAUSTED",
			Message: fmt.Sprintf("Too many simultaneous invocations: the sandbox runs at most %d scripts at once. Try again when one has finished.", s.max)}}
	}
	s.total++
	s.mu.Unlock()
	giveLocal := func() {
		s.mu.Lock()
		s.total--
		s.mu.Unlock()
	}
	giveShared, ok, err := s.shared.Take(ctx, user)
	switch {
	case err != nil:
		giveLocal()
		slog.Error("taking a shared run slot", "err", err)
		return nil, &apiError{Error: errorStatus{Code: http.StatusServiceUnavailable, Status: "UNAVAILABLE",
			Message: "The run could not start: the database that counts each user's runs across Loupe's replicas (server.database) did not answer. Try again shortly."}}
	case !ok:
		giveLocal()
		return nil, &apiError{Error: errorStatus{Code: http.StatusTooManyRequests, Status: "RESOURCE_EXHAUSTED",
			Message: fmt.Sprintf("Too many simultaneous invocations: the sandbox runs at most %d of one user's scripts at once. Try again when one of yours has finished.", s.shared.PerUser())}}
	}
	var once sync.Once
	return func() { once.Do(func() { giveShared(); giveLocal() }) }, nil
}
