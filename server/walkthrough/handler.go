package walkthrough

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"loupe/app/catalog"
)

// maxRunRequest bounds a run, check or record request: the answer or document it carries,
// plus the run so far.
const maxRunRequest = maxBody + 1<<20

// Service answers the browser runner (app/walkthrough) and the history's recorder, on the
// server and in the static explorer's sandbox module alike. It holds no credential and calls
// no API: the browser sends each request through the proxy. Its routes (Register):
//
//	POST /walkthroughs/{id}/run  the run protocol (catalog.WalkRunRequest) over a walkthrough of Set
//	POST /walkthroughs/run       the same over the document the request carries
//	POST /walkthroughs/check     a document loaded and compiled, or its problems (catalog.WalkCheckRequest)
//	POST /walkthroughs/record    a document written from requests sent (catalog.WalkRecordRequest)
type Service struct {
	// Set returns the walkthroughs (they change on reload); an error says why they could not
	// load, and the request is answered 503. Required.
	Set func(ctx context.Context) (*Set, error)
	// Catalog returns the catalog that a document the request carries is checked against.
	// Required.
	Catalog func(ctx context.Context) (*catalog.Catalog, error)
	// Sources matches such a document's source descriptions besides its names and the page's
	// /openapi/<slug>.yaml (see inlineSources); nil means by those alone.
	Sources func() Sources

	docs docCache
}

// Register adds the service's routes to mux.
func (s *Service) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /walkthroughs/{id}/run", s.serveRun)
	mux.HandleFunc("POST /walkthroughs/run", s.serveInlineRun)
	mux.HandleFunc("POST /walkthroughs/check", s.serveCheck)
	mux.HandleFunc("POST /walkthroughs/record", s.serveRecord)
}

// serveRun runs a step of a walkthrough of the set.
func (s *Service) serveRun(w http.ResponseWriter, r *http.Request) {
	var req catalog.WalkRunRequest
	if !decode(w, r, &req) {
		return
	}
	set, err := s.Set(r.Context())
	if err != nil {
		answer(w, http.StatusServiceUnavailable, catalog.WalkRunAnswer{Error: unavailable(err)})
		return
	}
	wt := set.Get(r.PathValue("id"))
	if wt == nil {
		answer(w, http.StatusNotFound, catalog.WalkRunAnswer{Error: fmt.Sprintf("There is no walkthrough %q. The walkthroughs are: %s.",
			r.PathValue("id"), strings.Join(set.IDs(), ", "))})
		return
	}
	answer(w, http.StatusOK, wt.RunStep(req))
}

// serveInlineRun runs a step of the document the request carries; a document that does not
// load is answered with its problems, and nothing runs.
func (s *Service) serveInlineRun(w http.ResponseWriter, r *http.Request) {
	var req catalog.WalkRunRequest
	if !decode(w, r, &req) {
		return
	}
	wt, problems, err := s.load(r.Context(), req.Document, req.Name, req.Origin)
	switch {
	case err != nil:
		answer(w, http.StatusServiceUnavailable, catalog.WalkRunAnswer{Error: unavailable(err)})
	case len(problems) > 0:
		answer(w, http.StatusOK, catalog.WalkRunAnswer{Problems: problems,
			Error: "The walkthrough does not load: fix the problems at their lines, then open it again."})
	default:
		answer(w, http.StatusOK, wt.RunStep(req))
	}
}

// serveCheck loads the document the request carries and answers it compiled, or its problems.
func (s *Service) serveCheck(w http.ResponseWriter, r *http.Request) {
	var req catalog.WalkCheckRequest
	if !decode(w, r, &req) {
		return
	}
	wt, problems, err := s.load(r.Context(), req.Document, req.Name, req.Origin)
	switch {
	case err != nil:
		answer(w, http.StatusServiceUnavailable, catalog.WalkCheckAnswer{Error: unavailable(err)})
	case len(problems) > 0:
		answer(w, http.StatusOK, catalog.WalkCheckAnswer{Problems: problems})
	default:
		cw, err := CompileOne(wt)
		if err != nil {
			answer(w, http.StatusOK, catalog.WalkCheckAnswer{Problems: Problems(err)})
			return
		}
		answer(w, http.StatusOK, catalog.WalkCheckAnswer{Walkthrough: &cw})
	}
}

// decode reads a JSON request body into v, or answers 400 and returns false.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxRunRequest)).Decode(v); err != nil {
		answer(w, http.StatusBadRequest, map[string]string{"error": "The request is not valid JSON: " + err.Error()})
		return false
	}
	return true
}

// answer writes v as JSON, never cached.
func answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // messages name <slug> and <id> for a person to read
	_ = enc.Encode(v)
}

// unavailable says why the walkthroughs could not load, and what to do.
func unavailable(err error) string {
	return "The walkthroughs could not load: " + err.Error() + ". Try again; if it fails again, reload the page."
}
