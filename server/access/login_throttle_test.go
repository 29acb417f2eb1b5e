package access

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"loupe/server/internal/clientaddr"
)

// loginCookie starts a session of name on g and returns its cookie.
func loginCookie(t testing.TB, g *Gate, name string) *http.Cookie {
	t.Helper()
	id, err := g.sessions.Create(name, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return sessionCookie(id, time.Hour, false)
}

// loginRig is a gate in mode users (alice and bob, password "right") behind the client
// resolver, with a settable clock and a throttle of maxAddresses addresses.
type loginRig struct {
	gate    *Gate
	handler http.Handler
	now     time.Time
}

func newLoginRig(t testing.TB, maxAddresses int) *loginRig {
	t.Helper()
	hash, _ := bcrypt.GenerateFromPassword([]byte("right"), bcrypt.MinCost)
	usersFile := filepath.Join(t.TempDir(), "users")
	if err := os.WriteFile(usersFile, []byte("alice:"+string(hash)+"\nbob:"+string(hash)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rig := &loginRig{now: time.Unix(1e9, 0)}
	g, err := New(Options{Mode: ModeUsers, UsersFile: usersFile, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Throttle: NewMemoryThrottle(DefaultDelays, maxAddresses), Now: func() time.Time { return rig.now }})
	if err != nil {
		t.Fatal(err)
	}
	clients, err := clientaddr.New([]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, "")
	if err != nil {
		t.Fatal(err)
	}
	rig.gate, rig.handler = g, clients.Wrap(g.Wrap(http.NotFoundHandler()))
	return rig
}

// login posts the form from client (behind the trusted proxy 10.0.0.1) with cookies, and
// returns the status, the Retry-After seconds and the cookies set.
func (rig *loginRig) login(name, password, client string, cookies ...*http.Cookie) (int, int, []*http.Cookie) {
	form := url.Values{"name": {name}, "password": {password}, "next": {"/"}}
	r := httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.RemoteAddr = "10.0.0.1:4000"
	r.Header.Set("X-Forwarded-For", client)
	for _, c := range cookies {
		r.AddCookie(c)
	}
	w := httptest.NewRecorder()
	rig.handler.ServeHTTP(w, r)
	retry, _ := strconv.Atoi(w.Header().Get("Retry-After"))
	return w.Code, retry, w.Result().Cookies()
}

// deviceOf is the device cookie among cookies.
func deviceOf(cookies []*http.Cookie) *http.Cookie {
	for _, c := range cookies {
		if c.Name == deviceCookie {
			return c
		}
	}
	return nil
}

// throttleSize is how many keys the rig's throttle holds, and the live heap.
func (rig *loginRig) throttleSize() (int, uint64) {
	m := rig.gate.throttle.(*memoryThrottle)
	m.mu.Lock()
	n := m.t.Len()
	m.mu.Unlock()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return n, ms.HeapAlloc
}

// TestLoginDelaysGrow: past the free failures each wrong password makes the next attempt wait
// longer, up to the ceiling, answered 429 before any password is checked; a wait is never a
// lock: once it passes, the right password works.
func TestLoginDelaysGrow(t *testing.T) {
	for _, tc := range []struct{ fails, want int }{{5, 0}, {6, 1}, {7, 2}, {8, 4}, {20, 300}, {100, 300}} {
		if got := DefaultDelays.After(tc.fails); got != time.Duration(tc.want)*time.Second {
			t.Errorf("after %d failures: got %v; want %ds", tc.fails, got, tc.want)
		}
	}
	rig := newLoginRig(t, 100)
	var waits []int
	for range 9 {
		code, retry, _ := rig.login("alice", "wrong", "198.51.100.7")
		if code == http.StatusTooManyRequests {
			waits = append(waits, retry)
			rig.now = rig.now.Add(time.Duration(retry) * time.Second)
			code, _, _ = rig.login("alice", "wrong", "198.51.100.7")
		}
		if code != http.StatusUnauthorized {
			t.Fatalf("a wrong password once the wait passed: got %d; want 401", code)
		}
	}
	if fmt.Sprint(waits) != "[1 2 4]" {
		t.Errorf("the waits: got %v; want [1 2 4] (5 free failures, then doubling)", waits)
	}
	code, retry, _ := rig.login("alice", "right", "198.51.100.7")
	if code != http.StatusTooManyRequests || retry != 8 {
		t.Errorf("the right password during a wait: got %d Retry-After %d; want 429, 8", code, retry)
	}
	rig.now = rig.now.Add(8 * time.Second)
	if code, _, _ := rig.login("alice", "right", "198.51.100.7"); code != http.StatusSeeOther {
		t.Errorf("the right password after the wait: got %d; want 303", code)
	}
}

// TestLoginFloodFromOtherAddresses: ten times the throttle's size of wrong passwords, from one
// address and from as many addresses behind the trusted proxy, against unknown names and the
// other account: alice's right password from her own address still works at once, the
// flooding address waits, and the throttle stays at its size.
func TestLoginFloodFromOtherAddresses(t *testing.T) {
	const size = 100
	rig := newLoginRig(t, size)
	_, heapBefore := rig.throttleSize()
	refused := 0
	for i := range 10 * size { // one address
		if code, _, _ := rig.login(fmt.Sprintf("guess%d", i), "wrong", "203.0.113.66"); code == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused < 10*size-DefaultDelays.Free-1 {
		t.Errorf("one address's flood: %d of %d refused before any password check; want all but the first few", refused, 10*size)
	}
	if code, _, _ := rig.login("alice", "right", "198.51.100.7"); code != http.StatusSeeOther {
		t.Errorf("alice during one address's flood: got %d; want 303", code)
	}
	for i := range 10 * size { // as many addresses, each guessing bob and unknown names
		addr := fmt.Sprintf("100.64.%d.%d", i/250, i%250+1)
		name := "bob"
		if i%2 == 0 {
			name = fmt.Sprintf("guess%d", i)
		}
		rig.login(name, "wrong", addr)
	}
	if code, _, _ := rig.login("alice", "right", "198.51.100.8"); code != http.StatusSeeOther {
		t.Errorf("alice from a new address after the flood: got %d; want 303", code)
	}
	n, heapAfter := rig.throttleSize()
	t.Logf("throttle after %d wrong passwords from %d addresses: %d keys (bound %d addresses + accounts), heap %+.1f KiB",
		20*size, 10*size+1, n, size, (float64(heapAfter)-float64(heapBefore))/1024)
	if n > size+2 {
		t.Errorf("the throttle holds %d keys; want at most %d addresses and the 2 accounts", n, size)
	}
}

// TestLoginFloodAgainstOneAccount: a flood of wrong passwords for alice from many addresses
// slows alice's account only: bob logs in at once from anywhere, alice at once from a browser
// she logged in from before, and from a new browser after a bounded wait.
func TestLoginFloodAgainstOneAccount(t *testing.T) {
	const size = 100
	rig := newLoginRig(t, size)
	code, _, cookies := rig.login("alice", "right", "198.51.100.7")
	device := deviceOf(cookies)
	if code != http.StatusSeeOther || device == nil {
		t.Fatalf("alice's first login: got %d, device cookie %v; want 303 and one", code, device)
	}
	for i := range 10 * size {
		rig.login("alice", "wrong", fmt.Sprintf("100.64.%d.%d", i/250, i%250+1))
	}
	if code, _, _ := rig.login("alice", "right", "198.51.100.7", device); code != http.StatusSeeOther {
		t.Errorf("alice from her browser during the flood: got %d; want 303", code)
	}
	if code, _, _ := rig.login("bob", "right", "100.64.0.1"); code != http.StatusSeeOther {
		t.Errorf("bob from one of the flooding addresses' neighbours: got %d; want 303", code)
	}
	code, retry, _ := rig.login("alice", "right", "192.0.2.200")
	if code != http.StatusTooManyRequests || retry < 1 || retry > int(DefaultDelays.Ceiling/time.Second) {
		t.Errorf("alice from a new browser during the flood: got %d Retry-After %d; want 429 with a wait of at most %v", code, retry, DefaultDelays.Ceiling)
	}
	rig.now = rig.now.Add(time.Duration(retry) * time.Second)
	if code, _, _ := rig.login("alice", "right", "192.0.2.200"); code != http.StatusSeeOther {
		t.Errorf("alice from a new browser once the wait passed: got %d; want 303", code)
	}
	forged := &http.Cookie{Name: deviceCookie, Value: device.Value[:len(device.Value)-2] + "xx"}
	if code, _, _ := rig.login("bob", "wrong", "192.0.2.201", forged); code != http.StatusUnauthorized {
		t.Errorf("a forged device cookie: got %d; want it ignored (401)", code)
	}
	n, _ := rig.throttleSize()
	t.Logf("throttle after %d wrong passwords for one account: %d keys (bound %d addresses + accounts + devices)", 10*size, n, size)
	if n > size+3 {
		t.Errorf("the throttle holds %d keys; want at most %d addresses, the accounts and the device", n, size)
	}
}

// TestLogoutEndsTheSession: after a logout the session cookie is refused, wherever a copy of
// it is sent from.
func TestLogoutEndsTheSession(t *testing.T) {
	rig := newLoginRig(t, 100)
	code, _, cookies := rig.login("alice", "right", "198.51.100.7")
	var session *http.Cookie
	for _, c := range cookies {
		if c.Name == cookieName {
			session = c
		}
	}
	if code != http.StatusSeeOther || session == nil {
		t.Fatalf("login: got %d, cookie %v", code, session)
	}
	ask := func(method, path string) int {
		r := httptest.NewRequest(method, path, nil)
		r.RemoteAddr = "198.51.100.7:1"
		r.Header.Set("Accept", "application/json")
		r.AddCookie(session)
		w := httptest.NewRecorder()
		rig.handler.ServeHTTP(w, r)
		return w.Code
	}
	if got := ask("GET", "/session"); got != http.StatusOK {
		t.Fatalf("signed in: got %d; want 200", got)
	}
	if got := ask("POST", "/logout"); got != http.StatusSeeOther {
		t.Fatalf("logout: got %d; want 303", got)
	}
	if got := ask("GET", "/session"); got != http.StatusUnauthorized {
		t.Errorf("the session cookie after logout: got %d; want 401", got)
	}
}
