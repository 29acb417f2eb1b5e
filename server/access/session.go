package access

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// cookieName is the session cookie. It is HttpOnly, so the app's code never sees it, and the
// proxy drops it before any upstream does.
const cookieName = "loupe_session"

// sessions signs session cookies "name|expiry" with a key made at start: restarting Loupe logs
// everyone out, and no session store is needed.
type sessions struct {
	key []byte
	ttl time.Duration
}

func newSessions(ttl time.Duration) (*sessions, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("making the session key: %w", err)
	}
	return &sessions{key: key, ttl: ttl}, nil
}

func (s *sessions) sign(payload string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// cookie returns the session cookie for name.
func (s *sessions) cookie(name string, secure bool, now time.Time) *http.Cookie {
	payload := base64.RawURLEncoding.EncodeToString([]byte(name)) + "." + strconv.FormatInt(now.Add(s.ttl).Unix(), 10)
	return &http.Cookie{
		Name: cookieName, Value: payload + "." + s.sign(payload), Path: "/",
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode, MaxAge: int(s.ttl.Seconds()),
	}
}

// user returns the name of a valid, unexpired session; "" otherwise.
func (s *sessions) user(r *http.Request) string {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return ""
	}
	i := strings.LastIndexByte(c.Value, '.')
	if i < 0 {
		return ""
	}
	payload, mac := c.Value[:i], c.Value[i+1:]
	if !hmac.Equal([]byte(mac), []byte(s.sign(payload))) {
		return ""
	}
	enc, exp, ok := strings.Cut(payload, ".")
	if !ok {
		return ""
	}
	t, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || time.Now().Unix() > t {
		return ""
	}
	name, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return ""
	}
	return string(name)
}

// attempts slows down password guessing: a few login attempts per client address.
type attempts struct {
	mu  sync.Mutex
	ips map[string]*rate.Limiter
}

func newAttempts() *attempts { return &attempts{ips: map[string]*rate.Limiter{}} }

func (a *attempts) allow(ip string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.ips) > 10000 {
		a.ips = map[string]*rate.Limiter{}
	}
	l := a.ips[ip]
	if l == nil {
		l = rate.NewLimiter(rate.Every(6*time.Second), 10)
		a.ips[ip] = l
	}
	return l.Allow()
}
