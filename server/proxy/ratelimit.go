package proxy

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiters holds one token bucket per user, forgetting users idle for an hour.
type limiters struct {
	mu    sync.Mutex
	rate  rate.Limit
	burst int
	users map[string]*userLimit
	swept time.Time
}

type userLimit struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiters(r rate.Limit, burst int) *limiters {
	if burst < 1 {
		burst = 1
	}
	return &limiters{rate: r, burst: burst, users: map[string]*userLimit{}, swept: time.Now()}
}

// wait returns how long the user must wait before this call is allowed; zero allows it and
// takes a token.
func (l *limiters) wait(user string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > 10*time.Minute {
		for name, u := range l.users {
			if now.Sub(u.seen) > time.Hour {
				delete(l.users, name)
			}
		}
		l.swept = now
	}
	u := l.users[user]
	if u == nil {
		u = &userLimit{lim: rate.NewLimiter(l.rate, l.burst)}
		l.users[user] = u
	}
	u.seen = now
	res := u.lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return d
	}
	return 0
}

// checkRate answers 429 with Retry-After when the user is over their rate.
func (p *Proxy) checkRate(w http.ResponseWriter, user string) *refusal {
	if p.limits == nil {
		return nil
	}
	d := p.limits.wait(user, time.Now())
	if d == 0 {
		return nil
	}
	secs := int(math.Ceil(d.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	return &refusal{http.StatusTooManyRequests,
		fmt.Sprintf("too many calls: %s may make %g per second (bursts of %d)", user, float64(p.limits.rate), p.limits.burst),
		fmt.Sprintf("retry after %d s, or raise server.limits.rate and server.limits.burst", secs)}
}
