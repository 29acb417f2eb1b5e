package catalog

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
)

// markdown renders CommonMark with the GitHub extensions (tables, strikethrough, autolinks,
// task lists). Raw HTML is passed through by goldmark and removed or tamed by the sanitizer,
// so authors may use harmless tags such as <kbd> or <details>.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	goldmark.WithRendererOptions(html.WithUnsafe()),
)

// sanitizer is bluemonday's user-generated-content policy, with rel="nofollow" and
// target="_blank" (and rel="noopener", which bluemonday adds with it) on links leaving the
// site only, so links between Loupe's pages stay plain; and the language-* class goldmark
// puts on fenced code blocks.
var sanitizer = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.RequireNoFollowOnLinks(false)
	p.RequireNoFollowOnFullyQualifiedLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[\w+#.-]+$`)).OnElements("code")
	return p
}()

// renderMarkdown renders Markdown source to sanitized HTML. Empty input gives "".
func renderMarkdown(src string) (string, error) {
	if strings.TrimSpace(src) == "" {
		return "", nil
	}
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(src), &buf); err != nil {
		return "", err
	}
	return strings.TrimSpace(sanitizer.Sanitize(buf.String())), nil
}

// renderInline renders a short Markdown text (an enum value's meaning) and drops the single
// paragraph around it, so it fits in a table cell or an option label.
func renderInline(src string) (string, error) {
	out, err := renderMarkdown(src)
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(out, "<p>") && strings.HasSuffix(out, "</p>") &&
		strings.Count(out, "<p>") == 1 {
		out = strings.TrimSuffix(strings.TrimPrefix(out, "<p>"), "</p>")
	}
	return out, nil
}

// RenderMarkdown renders Markdown as the catalog's descriptions are: goldmark, then sanitized
// with bluemonday, in one wrapper element. Other content (the walkthroughs) uses it.
func RenderMarkdown(src string) (string, error) { return renderMarkdown(src) }
