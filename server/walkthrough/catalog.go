package walkthrough

import (
	"fmt"
	"net/http"
	"strings"

	"loupe/app/catalog"
	servercatalog "loupe/server/catalog"
)

// Compile turns the walkthroughs into what the app's runner page shows (CompileOne), each
// naming its document at /arazzo/<id>.arazzo.yaml (where the server serves it: ServeDocument).
func Compile(s *Set) ([]catalog.Walkthrough, error) {
	var out []catalog.Walkthrough
	for _, w := range s.List() {
		cw, err := CompileOne(w)
		if err != nil {
			return nil, err
		}
		cw.Document = DocumentPath(w)
		out = append(out, cw)
	}
	return out, nil
}

// CompileOne turns a walkthrough into what the app's runner page shows: every workflow with
// its inputs and steps, descriptions rendered from Markdown and sanitized as the catalog's
// are, and the APIs its source descriptions were matched to.
func CompileOne(w *Walkthrough) (catalog.Walkthrough, error) {
	cw := catalog.Walkthrough{ID: w.ID, Title: w.Title, Summary: w.Summary, Aliases: w.Aliases}
	if w.API != nil {
		cw.API = w.API.Slug
	}
	if len(w.APIs) > 0 {
		cw.Sources = map[string]string{}
		for name, api := range w.APIs {
			cw.Sources[name] = api.Slug
		}
	}
	var err error
	if cw.DescriptionHTML, err = servercatalog.RenderMarkdown(w.Description); err != nil {
		return cw, fmt.Errorf("%s: description: %w", w.File, err)
	}
	for _, wf := range w.Doc.Workflows {
		cf := catalog.WalkWorkflow{ID: wf.ID, Summary: wf.Summary, DependsOn: wf.DependsOn}
		if cf.DescriptionHTML, err = servercatalog.RenderMarkdown(wf.Description); err != nil {
			return cw, fmt.Errorf("%s: workflow %s: %w", w.File, wf.ID, err)
		}
		for _, in := range Inputs(wf) {
			cf.Inputs = append(cf.Inputs, catalog.WalkInput(in))
		}
		for _, st := range wf.Steps {
			cs := catalog.WalkStep{ID: st.ID, WorkflowID: st.WorkflowID}
			if st.Operation != nil {
				cs.OperationID = st.Operation.ID
				if api := w.APIs[st.Operation.Source]; api != nil {
					cs.API = api.Slug
				}
			}
			if cs.DescriptionHTML, err = servercatalog.RenderMarkdown(st.Description); err != nil {
				return cw, fmt.Errorf("%s: step %s: %w", w.File, st.ID, err)
			}
			for _, c := range st.SuccessCriteria {
				cs.Criteria = append(cs.Criteria, c.Label())
			}
			for _, o := range st.Outputs {
				cs.Outputs = append(cs.Outputs, o.Name)
			}
			cf.Steps = append(cf.Steps, cs)
		}
		for _, o := range wf.Outputs {
			cf.Outputs = append(cf.Outputs, o.Name)
		}
		cw.Workflows = append(cw.Workflows, cf)
	}
	return cw, nil
}

// DocumentPath is where the server serves a walkthrough's document: /arazzo/<id> with the
// suffix of its file.
func DocumentPath(w *Walkthrough) string {
	for _, s := range Suffixes {
		if strings.HasSuffix(w.File, s) {
			return "/arazzo/" + w.ID + s
		}
	}
	return "/arazzo/" + w.ID + ".arazzo.yaml"
}

// ServeDocument serves the documents of the walkthroughs set returns at their DocumentPath,
// as they were read: for download, and for other runners (redocly respect URL) to fetch.
func ServeDocument(set func() *Set) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, wt := range set().List() {
			if DocumentPath(wt) != r.URL.Path {
				continue
			}
			ct := "application/yaml; charset=utf-8"
			if strings.HasSuffix(r.URL.Path, ".json") {
				ct = "application/json; charset=utf-8"
			}
			w.Header().Set("Content-Type", ct)
			w.Header().Set("Cache-Control", "no-cache")
			w.Write(wt.Data)
			return
		}
		http.Error(w, "There is no walkthrough document at "+r.URL.Path+": see /catalog.json for the walkthroughs and their documents.", http.StatusNotFound)
	})
}
