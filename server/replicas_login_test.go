package server

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"loupe/server/access"
	"loupe/server/testenv/pgtest"
)

// TestReplicasShareTheLoginThrottle: access mode users, two replicas on one database; a
// guesser alternating between them is slowed as one: past the free failures counted over
// both, either replica answers 429 with the wait the failures on both make, before any
// password is checked. (Each replica's own throttle would have counted half.)
func TestReplicasShareTheLoginThrottle(t *testing.T) {
	hash, _ := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	users := filepath.Join(t.TempDir(), "users")
	if err := os.WriteFile(users, []byte("alice:"+string(hash)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rs := replicas(t, pgtest.DB(t), "server:\n  access:\n    mode: users\n    users_file: "+users+"\n", 2)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	login := func(replica, password string) (int, string) {
		t.Helper()
		resp, err := c.PostForm(replica+"/login", url.Values{"name": {"alice"}, "password": {password}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Retry-After")
	}
	free := access.DefaultDelays.Free
	for i := range free + 1 {
		if code, _ := login(rs[i%2], "wrong"); code != http.StatusUnauthorized {
			t.Fatalf("wrong password %d (on replica %d): got %d; want 401", i+1, i%2, code)
		}
	}
	want := strconv.Itoa(int(access.DefaultDelays.After(free + 1).Seconds()))
	for i, r := range rs {
		if code, retry := login(r, "correct horse"); code != http.StatusTooManyRequests || retry != want {
			t.Errorf("replica %d after %d wrong passwords spread over both: got %d Retry-After %q; want 429, %s", i, free+1, code, retry, want)
		}
	}
}
