package script

import (
	"io"
	"net/http"
	"net/url"
	"strings"

	"loupe/server/sandbox/script/engine"
	"loupe/server/sandbox/state"
)

// A deployment whose manifest has a webapp answers at its entry point's URL, as Apps Script's
// web apps do at script.google.com/macros/s/<deploymentId>/exec: GET runs doGet(e), POST runs
// doPost(e), of the deployed version (of the HEAD files at …/dev, the HEAD deployment's URL,
// for the owner). ContentService output is served with its MIME type; HtmlService output in a
// frame of its own (webapp_page.go). The web app acts on the state of the user whose browser
// or credential calls it, as a web app executing as the user deploying it does.

// MountPath is where the Loupe server mounts the script sandbox: web app URLs are under it.
const MountPath = "/sandbox/script"

// webAppURL is the URL of the web app of a deployment, as the real API gives it; the sandbox
// gives its own address instead where a request says where it is served (localURL).
func webAppURL(deploymentID string, head bool) string {
	if head {
		return "https://script.google.com/macros/s/" + deploymentID + "/dev"
	}
	return "https://script.google.com/macros/s/" + deploymentID + "/exec"
}

// localURLs points the web app entry points of deployments at the sandbox, at the address r
// came to (X-Forwarded-Host, which the Loupe server and its proxy set): a URL that answers.
func localURLs(r *http.Request, ds ...*deploymentJSON) {
	host := r.Header.Get("X-Forwarded-Host")
	if host == "" {
		return
	}
	scheme := r.Header.Get("X-Forwarded-Proto")
	if scheme != "https" {
		scheme = "http"
	}
	for _, d := range ds {
		eps := make([]entryPoint, len(d.EntryPoints))
		for i, ep := range d.EntryPoints {
			eps[i] = ep
			if ep.WebApp != nil {
				wa := *ep.WebApp
				wa.URL = scheme + "://" + host + MountPath + strings.TrimPrefix(wa.URL, "https://script.google.com")
				eps[i].WebApp = &wa
			}
		}
		d.EntryPoints = eps
	}
}

// serveWebApp answers /macros/s/<deploymentId>/exec (and /dev) and the frames of their HTML.
func (h *handler) serveWebApp(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/macros/")
	if token, ok := strings.CutPrefix(rest, "frames/"); ok {
		h.frames.serve(w, token)
		return
	}
	seg := strings.SplitN(strings.TrimPrefix(rest, "s/"), "/", 3)
	if !strings.HasPrefix(rest, "s/") || len(seg) < 2 || (seg[1] != "exec" && seg[1] != "dev") {
		webAppError(w, http.StatusNotFound, "Sorry, unable to open the file at this time.", "Check the address: a web app's URL ends in /exec (or /dev).")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodPost && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, POST")
		webAppError(w, http.StatusMethodNotAllowed, "A web app answers GET (doGet) and POST (doPost).", "")
		return
	}
	st, err := h.sessions.Get(r.Context())
	if err != nil {
		e := stateError(err)
		webAppError(w, e.Error.Code, e.Error.Message, "")
		return
	}
	pathInfo := ""
	if len(seg) == 3 {
		pathInfo = seg[2]
	}
	res, e := runWebApp(st, r, seg[0], seg[1] == "dev", pathInfo)
	if e != nil {
		webAppError(w, e.Error.Code, e.Error.Message, "")
		return
	}
	h.writeOutput(w, r, rest, res)
}

// runWebApp runs doGet or doPost of the web app deployment id for r.
func runWebApp(s *store, r *http.Request, id string, dev bool, pathInfo string) (engine.Result, *apiError) {
	fn := "doGet"
	if r.Method == http.MethodPost {
		fn = "doPost"
	}
	event, e := webAppEvent(r, pathInfo)
	if e != nil {
		return engine.Result{}, e
	}
	release, e := s.slots.take(r.Context(), state.SessionOf(r.Context()))
	if e != nil {
		return engine.Result{}, e
	}
	defer release()
	s.mu.Lock()
	p, d := s.findDeployment(id)
	if d == nil || d.head != dev || !hasWebApp(d.toJSON(p).EntryPoints) {
		s.mu.Unlock()
		return engine.Result{}, &apiError{Error: errorStatus{Code: http.StatusNotFound, Status: "NOT_FOUND",
			Message: "Sorry, unable to open the file at this time. No web app is deployed at this address: deploy a version whose manifest has webapp."}}
	}
	if dev && p.accessLevel() != "OWNER" {
		s.mu.Unlock()
		return engine.Result{}, errPermission("Only the script's owner may open its /dev web app (the latest saved code).")
	}
	files := p.files
	if !dev {
		files = p.version(d.version).files
	}
	libs, libFail := s.resolveLibraries(files)
	job := s.newJob(p, files, libs, fn, []any{event})
	job.WebApp = true
	proc := s.startProcess(p, d, fn, files, "WEBAPP")
	s.mu.Unlock()
	res, _, e := s.execute(r.Context(), job, libFail, proc)
	return res, e
}

// hasWebApp reports whether the entry points include a web app.
func hasWebApp(eps []entryPoint) bool {
	for _, e := range eps {
		if e.EntryPointType == "WEB_APP" {
			return true
		}
	}
	return false
}

// webAppEvent is the event object e of doGet(e) and doPost(e): the query's parameters (and a
// form body's), the path after /exec, and for a POST its body as postData.
func webAppEvent(r *http.Request, pathInfo string) (map[string]any, *apiError) {
	q := r.URL.Query()
	e := map[string]any{"queryString": r.URL.RawQuery, "contextPath": "", "contentLength": -1}
	if pathInfo != "" {
		e["pathInfo"] = pathInfo
	}
	if r.Method == http.MethodPost {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil || len(b) > maxBody {
			return nil, invalidArgument("", "The request body is larger than 4 MiB, or could not be read.")
		}
		typ := r.Header.Get("Content-Type")
		e["contentLength"] = len(b)
		e["postData"] = map[string]any{"contents": string(b), "length": len(b), "type": strings.TrimSpace(strings.Split(typ, ";")[0]), "name": "postData"}
		if strings.HasPrefix(typ, "application/x-www-form-urlencoded") {
			if form, err := url.ParseQuery(string(b)); err == nil {
				for k, vs := range form {
					q[k] = append(q[k], vs...)
				}
			}
		}
	}
	one, all := map[string]any{}, map[string]any{}
	for k, vs := range q {
		one[k], all[k] = vs[0], vs
	}
	e["parameter"], e["parameters"] = one, all
	return e, nil
}
