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
	s, err := newSessions(time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := newSessions(time.Hour)
	good := s.cookie("alice", true, time.Now())
	if !good.HttpOnly || !good.Secure || good.SameSite != http.SameSiteLaxMode {
		t.Errorf("cookie flags: got %+v; want HttpOnly, Secure, SameSite=Lax", good)
	}
	tests := []struct {
		name   string
		cookie *http.Cookie
		want   string
	}{
		{"valid", good, "alice"},
		{"expired", s.cookie("alice", false, time.Now().Add(-2*time.Hour)), ""},
		{"another key", other.cookie("alice", false, time.Now()), ""},
		{"tampered name", &http.Cookie{Name: cookieName, Value: "Ym9i" + good.Value[strings.Index(good.Value, "."):]}, ""},
		{"garbage", &http.Cookie{Name: cookieName, Value: "x.y"}, ""},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/", nil)
		r.AddCookie(tt.cookie)
		if got := s.user(r); got != tt.want {
			t.Errorf("%s: got %q; want %q", tt.name, got, tt.want)
		}
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
