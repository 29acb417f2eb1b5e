package op

import (
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

const hostileEmbed = `{"content":["<div class=\"section\" id=\"install\"><h2>Install<a class=\"headerlink\" href=\"#install\">¶</a></h2>` +
	`<p onclick=\"steal()\" style=\"color:red\">Run <code>pip install</code>.</p><script>alert(1)</script>` +
	`<img src=\"x\" onerror=\"alert(2)\"><a href=\"javascript:alert(3)\">bad</a><a href=\"https://example.com/\">good</a>` +
	`<iframe src=\"https://evil.example/\"></iframe><form action=\"/x\"><input name=\"q\"></form></div>"],` +
	`"headers":[{"Install":"#install"}],"url":"https://docs.example.com/en/latest/user_guide/#install","meta":{"project":"pip"}}`

func TestEmbedViewerSanitizesAndSandboxes(t *testing.T) {
	viewer := bodyViewers[catalog.ViewerHTML]
	if viewer == nil {
		t.Fatal("no HTML viewer registered")
	}
	out := app.HTMLString(viewer(&catalog.Operation{}, 200, []byte(hostileEmbed)))
	// HTMLString writes attributes with strconv.Quote, in any order: take srcdoc out of the
	// frame's tag and read it back.
	tag := out[strings.Index(out, "<iframe"):]
	at := strings.Index(tag, `srcdoc=`) + len(`srcdoc=`)
	quoted, err := strconv.QuotedPrefix(tag[at:])
	if err != nil {
		t.Fatalf("srcdoc: %v", err)
	}
	doc, _ := strconv.Unquote(quoted)
	rest := tag[at+len(quoted):]
	attrs := tag[:at] + rest[:strings.Index(rest, ">")]
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"a frame", strings.Contains(out, `id="embed-frame"`), true},
		{"the frame runs no script", strings.Contains(attrs, "allow-scripts"), false},
		{"the frame has no origin of its own", strings.Contains(attrs, "allow-same-origin"), false},
		{"the frame is sandboxed", strings.Contains(attrs, `sandbox="allow-popups allow-popups-to-escape-sandbox"`), true},
		{"the text is there", strings.Contains(doc, "pip install"), true},
		{"section anchors stay", strings.Contains(doc, `id="install"`), true},
		{"no script element", strings.Contains(doc, "<script"), false},
		{"no event handler", strings.Contains(doc, "onerror") || strings.Contains(doc, "onclick"), false},
		{"no javascript: link", strings.Contains(doc, "javascript:"), false},
		{"no inner frame", strings.Contains(doc, "evil.example"), false},
		{"no form", strings.Contains(doc, "<form"), false},
		{"no style attribute", strings.Contains(doc, "color:red"), false},
		{"good links open outside", strings.Contains(doc, "https://example.com/"), true},
		{"the headings are listed", strings.Contains(out, ">Install</span>"), true},
		{"the source is a link", strings.Contains(out, `href="https://docs.example.com/en/latest/user_guide/#install"`), true},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v; want %v\n%s\n%s", tt.name, tt.got, tt.want, attrs, doc)
		}
	}
}

func TestEmbedViewerReadsEitherContentShape(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"one string", `{"content":"<p>hello</p>"}`, "hello"},
		{"a list", `{"content":["<p>a</p>","<p>b</p>"]}`, "b"},
		{"none", `{"content":[]}`, "no HTML content"},
		{"not an embed", `[1]`, "not an embed document"},
	}
	viewer := bodyViewers[catalog.ViewerHTML]
	for _, tt := range tests {
		if out := app.HTMLString(viewer(&catalog.Operation{}, 200, []byte(tt.body))); !strings.Contains(out, tt.want) {
			t.Errorf("%s: got %s; want it to hold %q", tt.name, out, tt.want)
		}
	}
}
