package access

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
)

func TestLocalPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/entities/entities.search", "/entities/entities.search"},
		{"/?a=b", "/?a=b"},
		{"", "/"},
		{"//evil.example/", "/"},
		{"/\\evil.example", "/"},
		{"https://evil.example/", "/"},
		{"javascript:alert(1)", "/"},
		{"/x\r\nSet-Cookie: a=b", "/"},
	}
	for _, tt := range tests {
		if got := localPath(tt.in); got != tt.want {
			t.Errorf("localPath(%q): got %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestReadUsers(t *testing.T) {
	hash, _ := bcrypt.GenerateFromPassword([]byte("pw"), bcrypt.MinCost)
	tests := []struct {
		name, file, want string
	}{
		{"valid", "# users\n\nalice:" + string(hash) + "\n", ""},
		{"no colon", "alice\n", "line 1: expected name:bcrypt-hash"},
		{"not bcrypt", "alice:{SHA}abc\n", "line 1: the hash of alice is not bcrypt"},
		{"empty", "# nobody\n", "no users"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "users")
			os.WriteFile(p, []byte(tt.file), 0o600)
			u, err := readUsers(p)
			if tt.want == "" {
				if err != nil || !u.check("alice", "pw") || u.check("alice", "nope") || u.check("bob", "pw") {
					t.Errorf("got %v; want alice with her password only", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v; want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestSessions(t *testing.T) {
	s := NewMemorySessions()
	now := time.Unix(1e9, 0)
	id, err := s.Create("alice", now.Add(time.Hour))
	if err != nil || len(id) < 22 {
		t.Fatalf("Create: %q, %v; want an ID of 128 bits or more", id, err)
	}
	if c := sessionCookie(id, time.Hour, true); !c.HttpOnly || !c.Secure || c.SameSite != http.SameSiteLaxMode {
		t.Errorf("cookie flags: got %+v; want HttpOnly, Secure, SameSite=Lax", c)
	}
	other, _ := s.Create("bob", now.Add(time.Hour))
	for _, tt := range []struct {
		name, id string
		at       time.Time
		want     string
	}{
		{"valid", id, now, "alice"},
		{"expired", id, now.Add(2 * time.Hour), ""},
		{"unknown", "x" + id[1:], now, ""},
		{"empty", "", now, ""},
		{"another user's", other, now, "bob"},
	} {
		if got, _ := s.Lookup(tt.id, tt.at); got != tt.want {
			t.Errorf("%s: got %q; want %q", tt.name, got, tt.want)
		}
	}
	s.Delete(other)
	if got, ok := s.Lookup(other, now); ok {
		t.Errorf("after Delete: got %q; want the session gone", got)
	}
}

// TestSessionsPerUserBounded: a user who logs in again and again keeps their most recent
// sessions, and nobody else's is touched.
func TestSessionsPerUserBounded(t *testing.T) {
	s := NewMemorySessions()
	now := time.Unix(1e9, 0)
	bob, _ := s.Create("bob", now.Add(time.Hour))
	var ids []string
	for range 10 * maxSessionsPerUser {
		id, _ := s.Create("alice", now.Add(time.Hour))
		ids = append(ids, id)
	}
	if _, ok := s.Lookup(ids[0], now); ok {
		t.Error("alice's first session is still there; want her oldest ended past the bound")
	}
	if _, ok := s.Lookup(ids[len(ids)-1], now); !ok {
		t.Error("alice's last session is gone")
	}
	if _, ok := s.Lookup(bob, now); !ok {
		t.Error("bob's session is gone after alice's logins")
	}
}

func TestHeaderModeTrustsOnlyItsProxies(t *testing.T) {
	g, err := New(Options{Mode: ModeHeader, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, Admins: []string{"alice"}})
	if err != nil {
		t.Fatal(err)
	}
	var who string
	var admin bool
	h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { who, admin = g.User(r) }))
	tests := []struct {
		remote, user string
		status       int
		who          string
		admin        bool
	}{
		{"10.1.2.3:5555", "alice", 200, "alice", true},
		{"10.1.2.3:5555", "bob", 200, "bob", false},
		{"[::ffff:10.1.2.3]:5555", "bob", 200, "bob", false},
		{"192.0.2.1:5555", "alice", 403, "", false},
		{"10.1.2.3:5555", "", 401, "", false},
	}
	for _, tt := range tests {
		who, admin = "", false
		r := httptest.NewRequest("GET", "/proxy/chat/v1/x", nil)
		r.RemoteAddr = tt.remote
		if tt.user != "" {
			r.Header.Set("X-Forwarded-User", tt.user)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.status || who != tt.who || admin != tt.admin {
			t.Errorf("%s as %q: got %d %q admin=%v; want %d %q admin=%v", tt.remote, tt.user, w.Code, who, admin, tt.status, tt.who, tt.admin)
		}
	}
}
