package markdown

import (
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// hostile holds Markdown that tries to smuggle active content into the page.
var hostile = []string{
	"<script>alert(1)</script>",
	"hi <script>alert(1)</script> there",
	"<img src=x onerror=alert(1)>",
	"text <img src=x onerror=\"alert(1)\"> inline",
	"<iframe src=\"https://evil.example\"></iframe>",
	"<style>body{display:none}</style>",
	"<div style=\"position:fixed\" onclick=\"alert(1)\">x</div>",
	"[click](javascript:alert(1))",
	"[click](JaVaScRiPt:alert(1))",
	"![x](javascript:alert(1))",
	"<a href=\"javascript:alert(1)\">x</a>",
	"<svg onload=alert(1)>",
	"<details open ontoggle=alert(1)>",
	"[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
	"```html\n<script>alert(1)</script>\n```",
	"```\" onmouseover=\"alert(1)\n```",
	"<form action=x><input name=y></form>",
}

// active reports the first piece of active content in rendered HTML: an element that can run
// or embed something, an event handler or style attribute, or a URL of another scheme than
// http(s) or mailto.
func active(src string) string {
	z := html.NewTokenizer(strings.NewReader(src))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			switch tok.Data {
			case "script", "style", "iframe", "object", "embed", "svg", "form", "details", "link", "meta", "base":
				return "<" + tok.Data + ">"
			}
			for _, a := range tok.Attr {
				v := strings.ToLower(strings.TrimSpace(a.Val))
				switch {
				case strings.HasPrefix(a.Key, "on"), a.Key == "style", a.Key == "srcdoc":
					return a.Key
				case (a.Key == "href" || a.Key == "src") && !strings.HasPrefix(v, "http://") &&
					!strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "mailto:"):
					return a.Key + "=" + v
				}
			}
		}
	}
}

func TestRenderNeverKeepsActiveContent(t *testing.T) {
	if active(`<p><img src="x" onerror="alert(1)"></p>`) == "" {
		t.Fatal("the checker misses an onerror handler")
	}
	r := NewRenderer()
	for _, src := range hostile {
		if got := active(r.Render(src)); got != "" {
			t.Errorf("Render(%q) kept %q: %s", src, got, r.Render(src))
		}
		s := feed(src+"\n\nafter\n", rand.New(rand.NewPCG(1, 2)))
		if got := active(s.HTML()); got != "" {
			t.Errorf("streamed %q kept %q: %s", src, got, s.HTML())
		}
	}
}

func TestRenderShowsRawHTMLAsText(t *testing.T) {
	got := NewRenderer().Render("a <b>bold?</b> word")
	want := "<p>a &lt;b&gt;bold?&lt;/b&gt; word</p>\n"
	if got != want {
		t.Errorf("got %q; want %q", got, want)
	}
}

func TestRenderKeeps(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"code language class", "```go\nx := 1\n```", `<pre><code class="language-go">x := 1` + "\n</code></pre>\n"},
		{"links open in a new tab without referrer", "[a](https://example.com)",
			`<p><a href="https://example.com" rel="nofollow noreferrer noopener" target="_blank">a</a></p>` + "\n"},
		{"task list checkboxes", "- [x] done", `<ul>` + "\n" + `<li><input checked="" disabled="" type="checkbox"> done</li>` + "\n</ul>\n"},
		{"table alignment", "| a |\n|--:|\n| 1 |", "<table>\n<thead>\n<tr>\n<th align=\"right\">a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td align=\"right\">1</td>\n</tr>\n</tbody>\n</table>\n"},
		{"strikethrough and emphasis", "~~x~~ *y* **z**", "<p><del>x</del> <em>y</em> <strong>z</strong></p>\n"},
		{"https images", "![alt](https://example.com/a.png)", `<p><img src="https://example.com/a.png" alt="alt"></p>` + "\n"},
	}
	r := NewRenderer()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Render(tt.src); got != tt.want {
				t.Errorf("got %q; want %q", got, tt.want)
			}
		})
	}
}

func TestTheWarmUpDocumentUsesEveryConstruct(t *testing.T) {
	got := NewRenderer().Render(warmUp)
	for _, want := range []string{"<h1>", "<em>", "<strong>", "<del>", "<code>", `<a href="https://example.com"`, "<img ",
		`type="checkbox"`, "<ul>", `<ol start="3">`, "<blockquote>", `<td align="right">`, `class="language-go"`, "&lt;b&gt;", "<hr"} {
		if !strings.Contains(got, want) {
			t.Errorf("the warm-up renders without %s:\n%s", want, got)
		}
	}
}
