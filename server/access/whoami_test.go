package access

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

func TestSessionSaysWhoIsSignedIn(t *testing.T) {
	hash, _ := bcrypt.GenerateFromPassword([]byte("pw"), bcrypt.MinCost)
	usersFile := filepath.Join(t.TempDir(), "users")
	if err := os.WriteFile(usersFile, []byte("alice:"+string(hash)+"\nbob:"+string(hash)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	none, _ := New(Options{})
	users, err := New(Options{Mode: ModeUsers, UsersFile: usersFile, Admins: []string{"alice"}})
	if err != nil {
		t.Fatal(err)
	}
	header, _ := New(Options{Mode: ModeHeader, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	signedIn := func(name string) func(*http.Request) {
		return func(r *http.Request) { r.AddCookie(loginCookie(t, users, name)) }
	}
	tests := []struct {
		name       string
		gate       *Gate
		prepare    func(*http.Request)
		wantStatus int
		want       Session
	}{
		{"no access control", none, nil, 200, Session{User: "local", Admin: true, Mode: ModeNone}},
		{"users file, an admin", users, signedIn("alice"), 200, Session{User: "alice", Admin: true, Mode: ModeUsers, Logout: "/logout"}},
		{"users file, a user", users, signedIn("bob"), 200, Session{User: "bob", Mode: ModeUsers, Logout: "/logout"}},
		{"users file, nobody", users, nil, http.StatusUnauthorized, Session{}},
		{"trusted header", header, func(r *http.Request) { r.Header.Set("X-Forwarded-User", "carol") }, 200, Session{User: "carol", Mode: ModeHeader}},
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/session", nil)
			r.RemoteAddr = "127.0.0.1:5555"
			r.Header.Set("Accept", "application/json")
			if tt.prepare != nil {
				tt.prepare(r)
			}
			w := httptest.NewRecorder()
			tt.gate.Wrap(next).ServeHTTP(w, r)
			if w.Code != tt.wantStatus {
				t.Fatalf("status: got %d; want %d (%s)", w.Code, tt.wantStatus, w.Body)
			}
			if tt.wantStatus != 200 {
				return
			}
			var got Session
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatalf("body %s: %v", w.Body, err)
			}
			if got != tt.want {
				t.Errorf("got %+v; want %+v", got, tt.want)
			}
			if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control: got %q; want no-store", cc)
			}
		})
	}
}

func TestSessionTakesOnlyGet(t *testing.T) {
	g, _ := New(Options{})
	w := httptest.NewRecorder()
	g.Wrap(http.NotFoundHandler()).ServeHTTP(w, httptest.NewRequest("POST", "/session", nil))
	if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /session: got %d, Allow %q; want 405, GET, HEAD", w.Code, w.Header().Get("Allow"))
	}
}
