package cluster

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// osError is the cluster's error envelope: the error, its root causes and the
// status repeated.
type osError struct {
	Error  errorDetail `json:"error"`
	Status int         `json:"status"`
}

// errorDetail is the error of an envelope.
type errorDetail struct {
	RootCause []errorCause `json:"root_cause"`
	Type      string       `json:"type"`
	Reason    string       `json:"reason"`
}

// errorCause is one root cause.
type errorCause struct {
	Type   string `json:"type"`
	Reason string `json:"reason"`
}

// newError builds an envelope whose one root cause is the error itself.
func newError(status int, typ, reason string) *osError {
	return &osError{
		Error:  errorDetail{RootCause: []errorCause{{typ, reason}}, Type: typ, Reason: reason},
		Status: status,
	}
}

// illegalArgument is a 400 illegal_argument_exception.
func illegalArgument(format string, args ...any) *osError {
	return newError(http.StatusBadRequest, "illegal_argument_exception", fmt.Sprintf(format, args...))
}

// securityError is the security plugin's error body.
type securityError struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

// securityBadRequest is the plugin's 400 body with msg.
func securityBadRequest(msg string) securityError {
	return securityError{Status: "BAD_REQUEST", Message: msg}
}

// writeError writes e with its own status.
func writeError(w http.ResponseWriter, r *http.Request, e *osError) {
	writeJSON(w, r, e.Status, e)
}

// commonParams are accepted by every endpoint, as by every OpenSearch REST
// handler (writeJSON honours pretty, format and filter_path). error_trace is
// accepted and ignored.
var commonParams = []string{"pretty", "human", "error_trace", "filter_path", "format"}

// checkParams answers OpenSearch's 400 for query parameters outside known
// (and commonParams), with its "did you mean" suggestions.
func checkParams(path string, q url.Values, known []string) *osError {
	candidates := append(slices.Clone(commonParams), known...)
	var invalid []string
	for k := range q {
		if !slices.Contains(candidates, k) {
			invalid = append(invalid, k)
		}
	}
	if len(invalid) == 0 {
		return nil
	}
	slices.Sort(invalid)
	var b strings.Builder
	fmt.Fprintf(&b, "request [%s] contains unrecognized parameter", path)
	if len(invalid) > 1 {
		b.WriteString("s")
	}
	b.WriteString(": ")
	for i, p := range invalid {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("[" + p + "]")
		if s := suggestions(p, candidates); len(s) == 1 {
			b.WriteString(" -> did you mean [" + s[0] + "]?")
		} else if len(s) > 1 {
			b.WriteString(" -> did you mean any of [" + strings.Join(s, ", ") + "]?")
		}
	}
	return illegalArgument("%s", b.String())
}

// suggestions lists the candidates similar to p (Lucene's Levenshtein
// similarity above 0.5), most similar first, then by name.
func suggestions(p string, candidates []string) []string {
	type scored struct {
		name  string
		score float64
	}
	var s []scored
	for _, c := range candidates {
		if sc := similarity(p, c); sc > 0.5 {
			s = append(s, scored{c, sc})
		}
	}
	slices.SortFunc(s, func(a, b scored) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.name
	}
	return out
}

// similarity is 1 - editDistance/maxLength, as Lucene's LevenshteinDistance.
func similarity(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 || len(rb) == 0 {
		if len(ra) == len(rb) {
			return 1
		}
		return 0
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return 1 - float64(prev[len(rb)])/float64(max(len(ra), len(rb)))
}
