package state

import (
	"encoding/json"
	"net/http"
)

// ResetPath is the sandbox-only call that puts the caller's session of one API back to the
// seed: POST /sandbox/<slug>/_sandbox/reset (sandbox.Mux serves it for every API). It is not
// part of any API's document, and the real services have no such path.
const ResetPath = "/_sandbox/reset"

// ServeReset answers a ResetPath call for api: 200 {"reset":"<api>"} once the caller's changes
// are forgotten, 405 for a method other than POST, 503 when the shared database is away, 500
// when the store fails otherwise.
func ServeReset(w http.ResponseWriter, r *http.Request, reg *Registry, api string) {
	w.Header().Set("Content-Type", "application/json")
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		w.WriteHeader(http.StatusMethodNotAllowed)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "reset the " + api + " sandbox with POST /sandbox/" + api + ResetPath, "source": "loupe sandbox"})
		return
	}
	if err := reg.Reset(r.Context(), api); err != nil {
		status := http.StatusInternalServerError
		if le := AsLimit(err); le != nil {
			status, err = le.Status, le // the shared database away: 503, saying what to do
		}
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error(), "source": "loupe sandbox"})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]string{"reset": api})
}
