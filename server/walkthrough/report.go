package walkthrough

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"loupe/server/walkthrough/flow"
)

// marks are the signs of the criteria outcomes in a printed report.
var marks = map[string]string{flow.Passed: "✓", flow.Failed: "✗", flow.NotChecked: "·"}

// Write prints the report as `loupe walk` shows it: each step with its request, status,
// criteria (and why each held or failed), the values it passed on and the action taken, then
// PASS or FAIL with what failed and what to try.
func (r *Report) Write(out io.Writer) error {
	w := r.Walkthrough
	api := ""
	if w.API != nil {
		api = " (" + w.API.Title + ")"
	}
	fmt.Fprintf(out, "%s — %s%s\n", w.ID, w.Title, api)
	if len(w.Doc.Workflows) > 1 {
		fmt.Fprintf(out, "workflow: %s\n", r.Workflow)
	}
	if len(r.Inputs) > 0 {
		fmt.Fprintf(out, "inputs: %s\n", values(r.Inputs))
	}
	held := 0
	for i, s := range r.Steps {
		pad := strings.Repeat("   ", s.Depth)
		status := "not sent"
		switch {
		case s.Exchange != nil && s.Exchange.Status != 0:
			status = fmt.Sprint(s.Exchange.Status)
		case s.Exchange == nil && s.Error == "":
			status = "workflow"
		}
		mark := "✓"
		if !s.OK {
			mark = "✗"
		}
		where := s.Step
		if s.Depth > 0 {
			where = s.Workflow + "/" + s.Step
		}
		attempt := ""
		if s.Attempt > 1 {
			attempt = fmt.Sprintf(" (attempt %d)", s.Attempt)
		}
		fmt.Fprintf(out, "\n%s%s %d. %s%s  %s\n", pad, mark, i+1, where, attempt, status)
		if ex := s.Exchange; ex != nil && ex.Method != "" {
			fmt.Fprintf(out, "%s     %s %s  %s\n", pad, ex.Method, ex.URL, s.Duration.Round(time.Millisecond))
		}
		for _, c := range s.Criteria {
			if c.Outcome == flow.Passed {
				held++
			}
			why := ""
			if c.Why != "" {
				why = ": " + c.Why
			}
			fmt.Fprintf(out, "%s     %s %s  (%s%s)\n", pad, marks[c.Outcome], c.Condition, c.Outcome, why)
		}
		if len(s.Outputs) > 0 {
			fmt.Fprintf(out, "%s     → %s\n", pad, values(s.Outputs))
		}
		if s.Error != "" {
			fmt.Fprintf(out, "%s     error: %s\n", pad, s.Error)
		}
		if a := actionText(s.Action); a != "" {
			fmt.Fprintf(out, "%s     %s\n", pad, a)
		}
	}
	fmt.Fprintln(out)
	if r.OK {
		_, err := fmt.Fprintf(out, "PASS: %d steps, %d criteria held (%s)\n", len(r.Steps), held, r.Duration.Round(time.Millisecond))
		return err
	}
	_, err := fmt.Fprintf(out, "FAIL: %s\n%s\n", r.Err, r.Hint())
	return err
}

// actionText says what a run did after a step, when it was not simply the next step.
func actionText(a flow.Taken) string {
	name := ""
	if a.Name != "" {
		name = " (" + a.Name + ")"
	}
	switch a.Kind {
	case "goto":
		return "↪ goto " + a.Target + name
	case "retry":
		s := fmt.Sprintf("↻ retry %d of %d%s", a.Retry, a.Limit, name)
		if a.Retry == 0 {
			s = "↻ back to " + a.Target + name
		}
		if a.After > 0 {
			s += fmt.Sprintf(" after %gs", a.After)
		}
		return s
	case "end":
		return "■ end" + name
	}
	return ""
}

// Hint says what to try after a failed run.
func (r *Report) Hint() string {
	if r.OK || len(r.Steps) == 0 {
		return ""
	}
	last := r.Steps[len(r.Steps)-1]
	status := 0
	if last.Exchange != nil {
		status = last.Exchange.Status
	}
	return hint(last.Exchange != nil, status)
}

// hint says what to try after a step failed: whether its request was sent, and its status.
func hint(sent bool, status int) string {
	switch {
	case !sent:
		return "The request could not be built or sent: check the inputs and the values the earlier steps passed on."
	case status == 0:
		return "No answer arrived: check that the API's base URL is reachable (Loupe's configuration, apis.<slug>.base_url)."
	case status >= 400:
		return fmt.Sprintf("The API answered %d: read the API's own error in the answer, and check the credential and the inputs.", status)
	}
	return "The answer did not meet the criterion marked ✗: compare it with the operation's documented response."
}

// values prints name=value pairs in name order, each value as compact JSON, shortened.
func values(m map[string]any) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	parts := make([]string, 0, len(names))
	for _, k := range names {
		var v string
		if s, ok := m[k].(string); ok {
			v = s
		} else {
			b, _ := json.Marshal(m[k])
			v = string(b)
		}
		v = strings.Join(strings.Fields(v), " ")
		if r := []rune(v); len(r) > 80 {
			v = string(r[:77]) + "…"
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, "  ")
}
