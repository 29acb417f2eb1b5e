package proxy

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"loupe/server/internal/bounded"
)

// Bounds of the rate limiters' table: one token bucket per signed-in user or per anonymous
// client address. Past maxAnonymousBuckets the client unused longest loses its bucket (and
// starts afresh on its next call); a signed-in user's is never evicted for an anonymous one.
const (
	maxAnonymousBuckets = 10_000
	maxUserBuckets      = 100_000
	bucketIdle          = time.Hour
)

// RateLimiter takes a token for a call from key's bucket and returns zero, or returns how long
// until the bucket has one, taking nothing. signedIn says key is a signed-in user's. An error
// means the limit could not be checked (a shared store that did not answer).
type RateLimiter interface {
	Wait(ctx context.Context, key string, signedIn bool) (time.Duration, error)
}

// fallbackLimiter asks shared, and this process's own buckets when shared cannot answer: never
// unlimited, and never a refusal for the limit's own trouble. The first failure in a minute is
// logged.
type fallbackLimiter struct {
	shared RateLimiter
	local  *limiters

	mu     sync.Mutex
	logged time.Time
}

// Wait implements RateLimiter; it never fails.
func (f *fallbackLimiter) Wait(ctx context.Context, key string, signedIn bool) (time.Duration, error) {
	d, err := f.shared.Wait(ctx, key, signedIn)
	if err == nil {
		return d, nil
	}
	now := time.Now()
	f.mu.Lock()
	if now.Sub(f.logged) > time.Minute {
		f.logged = now
		slog.Warn("the shared rate limit did not answer: this replica limits calls on its own meanwhile", "err", err)
	}
	f.mu.Unlock()
	return f.local.wait(key, signedIn, now), nil
}

// limiters holds the token buckets in this process, forgetting those idle for an hour.
type limiters struct {
	mu    sync.Mutex
	rate  rate.Limit
	burst int
	t     *bounded.Table[string, *rate.Limiter]
	swept time.Time
}

func newLimiters(r rate.Limit, burst int) *limiters {
	if burst < 1 {
		burst = 1
	}
	return &limiters{rate: r, burst: burst, swept: time.Now(),
		t: bounded.New(bounded.Options[string, *rate.Limiter]{Max: maxAnonymousBuckets, MaxProtected: maxUserBuckets})}
}

// Wait is wait at the present time; it never fails.
func (l *limiters) Wait(_ context.Context, key string, signedIn bool) (time.Duration, error) {
	return l.wait(key, signedIn, time.Now()), nil
}

// wait returns how long key must wait before this call is allowed; zero allows it and takes a
// token. signedIn says key is a signed-in user's.
func (l *limiters) wait(key string, signedIn bool, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > 10*time.Minute {
		l.t.Expire(bucketIdle)
		l.swept = now
	}
	lim, ok := l.t.Get(key)
	if !ok {
		lim = rate.NewLimiter(l.rate, l.burst)
		l.t.Put(key, lim, key, signedIn)
	}
	res := lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return d
	}
	return 0
}

// rateKey names whose bucket r's call takes a token from: Config.RateKey's, else the user's.
func (p *Proxy) rateKey(r *http.Request, user string) (string, bool) {
	if p.cfg.RateKey != nil {
		return p.cfg.RateKey(r)
	}
	return "user:" + user, true
}

// checkRate answers 429 with Retry-After when the caller is over their rate.
func (p *Proxy) checkRate(w http.ResponseWriter, r *http.Request, user string) *refusal {
	if p.limits == nil {
		return nil
	}
	key, signedIn := p.rateKey(r, user)
	d, _ := p.limits.Wait(r.Context(), key, signedIn) // the process's own buckets never fail; a shared one falls back to them
	if d == 0 {
		return nil
	}
	secs := int(math.Ceil(d.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	who := user
	if !signedIn {
		who = "your address"
	}
	return &refusal{http.StatusTooManyRequests,
		fmt.Sprintf("too many calls: %s may make %g per second (bursts of %d)", who, float64(p.cfg.Rate), max(p.cfg.Burst, 1)),
		fmt.Sprintf("retry after %d s, or raise server.limits.rate and server.limits.burst", secs)}
}
