// Package markdown renders the Markdown of a chat answer to sanitized HTML: goldmark (with the
// GitHub extensions) renders, then a strict bluemonday policy sanitizes. Raw HTML in the text is
// never passed through: goldmark shows it as escaped text, and the policy would drop it anyway.
//
// A streaming answer grows token by token, so Stream renders each completed top-level block
// once and caches it, and re-renders only the open tail on each update. The package has no
// dependency on syscall/js.
package markdown

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// Renderer turns Markdown into sanitized HTML. It is safe for concurrent use.
type Renderer struct {
	md     goldmark.Markdown
	policy *bluemonday.Policy
	warm   sync.Once
}

// NewRenderer returns a Renderer with the GitHub extensions (tables, strikethrough, autolinks,
// task lists) and the strict policy of Policy.
func NewRenderer() *Renderer {
	md := goldmark.New(
		goldmark.WithExtensions(
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough, extension.Linkify, extension.TaskList,
		),
		goldmark.WithRendererOptions(
			renderer.WithNodeRenderers(util.Prioritized(rawAsText{}, 100)),
		),
	)
	return &Renderer{md: md, policy: Policy()}
}

// Render returns the sanitized HTML of a whole Markdown document.
func (r *Renderer) Render(src string) string {
	var buf bytes.Buffer
	if err := r.md.Convert([]byte(src), &buf); err != nil {
		// goldmark fails only when its writer does; a bytes.Buffer never does.
		return "<p>" + escapeCode(src) + "</p>"
	}
	return r.policy.Sanitize(buf.String())
}

// warmUp holds every construct the renderer knows, so that rendering it once builds every table
// goldmark and bluemonday build lazily on first use.
const warmUp = "# a\n\n*b* **c** ~~d~~ `e` https://example.com [f](https://example.com) ![g](https://example.com/g.png)\n\n" +
	"- [x] h\n- i\n\n3. j\n\n> k\n\n| l | m |\n|:--|--:|\n| n | o |\n\n```go\np\n```\n\n<b>q</b>\n\n---\n"

// Warm renders a small document once, so that the first real one does not also pay for
// goldmark's and bluemonday's set-up. Call it in a task of its own before the first answer;
// calls after the first do nothing.
func (r *Renderer) Warm() { r.warm.Do(func() { r.Render(warmUp) }) }

// codeClass is the only class the policy keeps: the language of a fenced code block.
var codeClass = regexp.MustCompile(`^language-[A-Za-z0-9_+#.-]+$`)

// Policy returns the strict sanitizing policy: text structure, code blocks (with their
// language-* class), tables, task list checkboxes, and links and images to http(s) URLs only,
// none to Loupe's proxy or sandboxes (Internal).
// Links open in a new tab with rel="nofollow noreferrer noopener". No script, style, iframe,
// form, event handler or style attribute survives.
func Policy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre",
		"ul", "ol", "li", "em", "strong", "del", "code", "table", "thead", "tbody", "tr", "th", "td")
	p.AllowAttrs("class").Matching(codeClass).OnElements("code")
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|right|center)$`)).OnElements("th", "td")
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").Matching(regexp.MustCompile(`^$`)).OnElements("input")
	p.AllowAttrs("href", "title").OnElements("a")
	p.AllowAttrs("src", "alt", "title").OnElements("img")
	p.AllowURLSchemes("mailto")
	notInternal := func(u *url.URL) bool { return !Internal(u.String()) }
	p.AllowURLSchemeWithCustomPolicy("http", notInternal)
	p.AllowURLSchemeWithCustomPolicy("https", notInternal)
	p.AllowRelativeURLs(false)
	p.RequireParseableURLs(true)
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
}

// rawAsText renders raw HTML in the Markdown as visible, escaped text: an HTML block as a
// plain code block, inline HTML as text. So a model that writes <script> shows it, inert.
type rawAsText struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (rawAsText) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindRawHTML, renderRawHTML)
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if entering {
		_, _ = w.WriteString("<pre><code>")
		for i := range n.Lines().Len() {
			line := n.Lines().At(i)
			_, _ = w.Write(util.EscapeHTML(line.Value(source)))
		}
		return ast.WalkContinue, nil
	}
	if n.HasClosure() {
		_, _ = w.Write(util.EscapeHTML(n.ClosureLine.Value(source)))
	}
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkContinue, nil
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*ast.RawHTML)
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
		}
	}
	return ast.WalkSkipChildren, nil
}

// escapeCode escapes text the way goldmark escapes the lines of a code block.
func escapeCode(s string) string {
	if !strings.ContainsAny(s, `&<>"`) {
		return s
	}
	return string(util.EscapeHTML([]byte(s)))
}
