package walkthrough

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// marks are the signs of the criteria outcomes in a printed report.
var marks = map[Outcome]string{Passed: "✓", Failed: "✗", NotChecked: "·"}

// Write prints the report as `loupe walk` shows it: each step with its request, status and
// criteria, the values it passed on, then PASS or FAIL with what failed and what to try.
func (r *Report) Write(out io.Writer) error {
	w := r.Walkthrough
	fmt.Fprintf(out, "%s — %s (%s)\n", w.ID, w.Title, w.API.Title)
	if len(r.Inputs) > 0 {
		fmt.Fprintf(out, "inputs: %s\n", values(r.Inputs))
	}
	held := 0
	for i, s := range r.Steps {
		status := "not sent"
		if s.Exchange.Status != 0 {
			status = fmt.Sprintf("%d", s.Exchange.Status)
		}
		mark := "✓"
		if !s.OK {
			mark = "✗"
		}
		fmt.Fprintf(out, "\n%s %d. %s (%s)  %s\n", mark, i+1, s.ID, s.OperationID, status)
		if s.Exchange.Method != "" {
			fmt.Fprintf(out, "     %s %s  %s\n", s.Exchange.Method, s.Exchange.URL, s.Exchange.Duration.Round(time.Millisecond))
		}
		for _, c := range s.Criteria {
			if c.Outcome == Passed {
				held++
			}
			fmt.Fprintf(out, "     %s %s  (%s)\n", marks[c.Outcome], c.Condition, c.Outcome)
		}
		if len(s.Outputs) > 0 {
			fmt.Fprintf(out, "     → %s\n", values(s.Outputs))
		}
		if s.Err != nil {
			fmt.Fprintf(out, "     error: %v\n", s.Err)
		}
	}
	fmt.Fprintln(out)
	if r.OK {
		_, err := fmt.Fprintf(out, "PASS: %d steps, %d criteria held (%s)\n", len(r.Steps), held, r.Duration.Round(time.Millisecond))
		return err
	}
	_, err := fmt.Fprintf(out, "FAIL: %v\n%s\n", r.Err, r.Hint())
	return err
}

// Hint says what to try after a failed run.
func (r *Report) Hint() string {
	if r.OK || len(r.Steps) == 0 {
		return ""
	}
	last := r.Steps[len(r.Steps)-1]
	return hint(last.Exchange.Method != "", last.Exchange.Status)
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
			b, _ := json.Marshal(Plain(m[k]))
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
