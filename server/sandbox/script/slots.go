package script

import (
	"fmt"
	"net/http"
	"sync"
)

// runSlots bounds the runs going on: at most max in the whole server, at most perUser of one
// user (sandbox session), so that one user's runs cannot take every slot from the others.
type runSlots struct {
	mu      sync.Mutex
	max     int
	perUser int
	total   int
	users   map[string]int
}

// newRunSlots returns slots for max runs, perUser of them for one user (0: half of max,
// rounded up, and never all of them when max is more than one).
func newRunSlots(max, perUser int) *runSlots {
	if perUser <= 0 {
		perUser = (max + 1) / 2
		if perUser == max && max > 1 {
			perUser = max - 1
		}
	}
	return &runSlots{max: max, perUser: min(perUser, max), users: map[string]int{}}
}

// take takes a slot for user, or returns the 429 that says which bound is reached; release
// gives the slot back.
func (s *runSlots) take(user string) (release func(), e *apiError) {
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
