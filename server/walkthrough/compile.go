package walkthrough

import (
	"fmt"

	"loupe/app/catalog"
	servercatalog "loupe/server/catalog"
)

// Compile turns the walkthroughs into what the app's runner page shows, the descriptions
// rendered from Markdown and sanitized as the catalog's are.
func Compile(s *Set) ([]catalog.Walkthrough, error) {
	var out []catalog.Walkthrough
	for _, w := range s.List() {
		cw := catalog.Walkthrough{ID: w.ID, API: w.API.Slug, Title: w.Title, Summary: w.Summary}
		var err error
		if cw.DescriptionHTML, err = servercatalog.RenderMarkdown(w.Doc.Info.Description); err != nil {
			return nil, fmt.Errorf("%s: description: %w", w.File, err)
		}
		for _, in := range w.Inputs {
			cw.Inputs = append(cw.Inputs, catalog.WalkInput(in))
		}
		for _, st := range w.Workflow.Steps {
			cs := catalog.WalkStep{ID: st.StepId, OperationID: st.OperationId}
			if cs.DescriptionHTML, err = servercatalog.RenderMarkdown(st.Description); err != nil {
				return nil, fmt.Errorf("%s: step %s: %w", w.File, st.StepId, err)
			}
			for _, c := range st.SuccessCriteria {
				cs.Criteria = append(cs.Criteria, criterionText(c.Context, c.Condition))
			}
			if st.Outputs != nil {
				for name := range st.Outputs.KeysFromOldest() {
					cs.Outputs = append(cs.Outputs, name)
				}
			}
			cw.Steps = append(cw.Steps, cs)
		}
		out = append(out, cw)
	}
	return out, nil
}

// criterionText is a criterion as reports show it.
func criterionText(context, condition string) string {
	if context != "" {
		return context + " ~ " + condition
	}
	return condition
}
