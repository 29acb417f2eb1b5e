package walkthrough

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"loupe/app/catalog"
)

// maxStepRequest bounds a step request: the answer it carries, plus the run so far.
const maxStepRequest = maxBody + 1<<20

// Handler serves POST /walkthroughs/{id}/step for the runner page (see Walkthrough.Step). It
// holds no credential and calls no API: the browser sends the step's request through the proxy.
func Handler(s *Set) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		wt := s.Get(r.PathValue("id"))
		if wt == nil {
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(catalog.WalkStepAnswer{Error: fmt.Sprintf("There is no walkthrough %q. The walkthroughs are: %s.",
				r.PathValue("id"), strings.Join(s.IDs(), ", "))})
			return
		}
		var req catalog.WalkStepRequest
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxStepRequest)).Decode(&req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(catalog.WalkStepAnswer{Error: "The step request is not valid JSON: " + err.Error()})
			return
		}
		json.NewEncoder(w).Encode(wt.Step(req))
	})
}
