package access

import (
	"encoding/json"
	"net/http"
)

// sessionPath answers who is signed in, for the app's account menu.
const sessionPath = "/session"

// Session is what GET /session answers: who the request's user is and how they came in. It
// never holds a credential nor the session cookie.
type Session struct {
	// User is the user's name; "local" in ModeNone.
	User string `json:"user"`
	// Admin reports whether the user may call the operations an API keeps to admins.
	Admin bool `json:"admin"`
	// Mode is the access mode: ModeNone, ModeUsers or ModeHeader.
	Mode string `json:"mode"`
	// Logout is where a POST from Loupe's page signs the user out; empty when Loupe does not
	// sign users in itself (ModeNone, and ModeHeader, where the proxy in front does).
	Logout string `json:"logout,omitempty"`
}

// serveSession answers GET /session for the user the gate let through.
func (g *Gate) serveSession(w http.ResponseWriter, r *http.Request, u User) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		deny(w, r, http.StatusMethodNotAllowed, "use GET", sessionPath)
		return
	}
	s := Session{User: u.Name, Admin: u.Admin, Mode: g.opts.Mode}
	if s.Mode == ModeUsers {
		s.Logout = logoutPath
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(s)
}
