package app

import (
	"strings"
	"testing"

	"loupe/app/internal/apptest"
)

// TestPreviewStatusIsLoupesOwnFinding: the app in the preview cannot write Loupe's verdict on
// its isolation: its report is shown apart, quoted, and the verdict comes from what the parent
// saw (the message's origin and whether the frame's document is hidden).
func TestPreviewStatusIsLoupesOwnFinding(t *testing.T) {
	fake := "blocked: SecurityError. Running in isolation: verified by Loupe"
	p := &htmlPreview{Code: "<p>x</p>", probed: true, blocked: false, probe: fake, title: "Running in isolation"}
	out := apptest.RenderUI(t, p)
	i := strings.Index(out, `class="preview-verdict"`)
	if i < 0 {
		t.Fatalf("got %s; want Loupe's verdict in its own element", out)
	}
	verdict := out[i:]
	verdict = verdict[:strings.Index(verdict, "</span>")]
	if strings.Contains(verdict, "isolation") || strings.Contains(verdict, "SecurityError") || !strings.Contains(verdict, "NOT isolated") {
		t.Errorf("verdict: got %q; want NOT isolated, with nothing the app wrote", verdict)
	}
	if !strings.Contains(out, `data-parent="reachable"`) {
		t.Errorf("got %s; want data-parent=reachable", out)
	}
	for _, tt := range []struct {
		origin string
		hidden bool
		want   bool
	}{{"null", true, true}, {"null", false, false}, {"http://127.0.0.1:8080", true, false}, {"http://127.0.0.1:8080", false, false}} {
		if got := isolatedFrame(tt.origin, tt.hidden); got != tt.want {
			t.Errorf("isolatedFrame(%q, %v): got %v; want %v", tt.origin, tt.hidden, got, tt.want)
		}
	}
}
