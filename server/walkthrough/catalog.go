package walkthrough

import (
	"fmt"

	"loupe/app/catalog"
	servercatalog "loupe/server/catalog"
)

// Compile turns the walkthroughs into what the app's runner page shows: each document's first
// workflow, descriptions rendered from Markdown and sanitized as the catalog's are. A step
// that runs a workflow has no OperationID.
func Compile(s *Set) ([]catalog.Walkthrough, error) {
	var out []catalog.Walkthrough
	for _, w := range s.List() {
		cw := catalog.Walkthrough{ID: w.ID, Title: w.Title, Summary: w.Summary}
		if w.API != nil {
			cw.API = w.API.Slug
		}
		var err error
		if cw.DescriptionHTML, err = servercatalog.RenderMarkdown(w.Description); err != nil {
			return nil, fmt.Errorf("%s: description: %w", w.File, err)
		}
		for _, in := range Inputs(w.Workflow) {
			cw.Inputs = append(cw.Inputs, catalog.WalkInput(in))
		}
		for _, st := range w.Workflow.Steps {
			cs := catalog.WalkStep{ID: st.ID}
			if st.Operation != nil {
				cs.OperationID = st.Operation.ID
			}
			if cs.DescriptionHTML, err = servercatalog.RenderMarkdown(st.Description); err != nil {
				return nil, fmt.Errorf("%s: step %s: %w", w.File, st.ID, err)
			}
			for _, c := range st.SuccessCriteria {
				cs.Criteria = append(cs.Criteria, c.Label())
			}
			for _, o := range st.Outputs {
				cs.Outputs = append(cs.Outputs, o.Name)
			}
			cw.Steps = append(cw.Steps, cs)
		}
		out = append(out, cw)
	}
	return out, nil
}
