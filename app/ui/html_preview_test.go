package ui

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

func TestPreviewDoc(t *testing.T) {
	tests := []struct{ code, before string }{
		{"<!doctype html><html><head><title>x</title></head></html>", "<!doctype html><html><head>"},
		{"<!DOCTYPE html>\n<p>no head</p>", "<!DOCTYPE html>"},
		{"<p>bare</p>", ""},
	}
	for _, tt := range tests {
		got := previewDoc(tt.code)
		if !strings.HasPrefix(got, tt.before+previewProbe) || !strings.HasSuffix(got, tt.code[len(tt.before):]) {
			t.Errorf("previewDoc(%q) = %.120q…; want the probe right after %q", tt.code, got, tt.before)
		}
	}
	out := apptest.RenderUI(t, NewHTMLPreview("<p>x</p>"))
	if !strings.Contains(out, `sandbox="allow-scripts"`) || !strings.Contains(out, `src="/preview"`) || strings.Contains(out, "allow-same-origin") {
		t.Errorf("got %s; want an iframe sandboxed with allow-scripts only, on /preview", out)
	}
}

func TestProbeReportSaysItInWords(t *testing.T) {
	for probe, want := range map[string]string{
		"blocked: SecurityError": "The app's own attempt to read Loupe's page was refused (SecurityError).",
		"reachable: Loupe":       "The app says it could read Loupe's page.",
		"unknown":                "The app's own check gave no answer.",
	} {
		if got := probeReport(probe); got != want {
			t.Errorf("probeReport(%q): got %q; want %q", probe, got, want)
		}
	}
}
