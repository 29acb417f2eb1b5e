package script

import (
	"encoding/json"
	"io"
	"net/http"

	"loupe/server/sandbox/script/engine"
)

// SyntaxCheckPath is where Loupe answers a syntax check of one server file (SyntaxChecker): a
// tool of Loupe's own, not of the script API, so that the workspace can mark a syntax error at
// its line before anything is saved, whichever server the script API points at.
const SyntaxCheckPath = "/tools/script/syntax"

// maxCheckedSource bounds the source a syntax check reads, as updateContent's body cap does.
const maxCheckedSource = 1 << 20

// SyntaxProblem is where a server file stops parsing, as the real API's updateContent would
// refuse it: its message is the one updateContent answers.
type SyntaxProblem struct {
	// Line is 1-based; Message is updateContent's "Syntax error: … line: N file: NAME".
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// CheckSyntax parses a SERVER_JS file named name the way updateContent does and returns its
// first syntax error, or nil when it compiles.
func CheckSyntax(name, source string) *SyntaxProblem {
	if line, _, ok := engine.SyntaxError(name, source); !ok {
		return &SyntaxProblem{Line: line, Message: checkSyntax(name, source)}
	}
	return nil
}

// SyntaxChecker answers POST {"name": "Code", "source": "…"} with {"problem": null} or
// {"problem": {"line": N, "message": "…"}}. It holds no state and no credential.
func SyntaxChecker() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			w.WriteHeader(http.StatusMethodNotAllowed)
			io.WriteString(w, `{"error":"send the file as POST {\"name\": …, \"source\": …}"}`+"\n")
			return
		}
		var in struct {
			Name   string `json:"name"`
			Source string `json:"source"`
		}
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxCheckedSource))
		if err := dec.Decode(&in); err != nil || in.Name == "" {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"the body must be JSON {\"name\": \"Code\", \"source\": \"…\"} of at most 1 MiB"}`+"\n")
			return
		}
		json.NewEncoder(w).Encode(struct {
			Problem *SyntaxProblem `json:"problem"`
		}{CheckSyntax(in.Name, in.Source)})
	})
}
