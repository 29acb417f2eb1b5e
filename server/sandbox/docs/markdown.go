package docs

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"loupe/content"
)

// pagesDir holds the documentation sources: <project slug>/<doc>.md, and
// each project's images in <project slug>/images/ (go:embed leaves out
// folders whose names start with "_").
const pagesDir = "data/docs"

// mediaScheme marks an image source that names a file of the sandbox's own
// media route; embed replaces it with that route's absolute URL.
const mediaScheme = "loupe-media:"

// markdown renders the documentation sources: GitHub Flavored Markdown,
// heading IDs from {#id} attributes or from the text, and raw HTML passed
// through unchanged (the pages are returned unsanitized, like the real
// service's).
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithAttribute()),
	goldmark.WithRendererOptions(html.WithUnsafe()),
)

// mustPages loads the pages from the embedded content; the sources are part
// of the binary, so an error is a bug caught by the tests.
func mustPages() map[string]map[string]*section {
	p, err := loadPages(content.DocsFS, pagesDir)
	if err != nil {
		panic(err)
	}
	return p
}

// loadPages reads every <project>/<doc>.md under dir of fsys into project
// slug -> doc name -> page.
func loadPages(fsys fs.FS, dir string) (map[string]map[string]*section, error) {
	out := map[string]map[string]*section{}
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".md" {
			return err
		}
		rel := strings.TrimPrefix(p, dir+"/")
		project, doc, ok := strings.Cut(strings.TrimSuffix(rel, ".md"), "/")
		if !ok {
			return nil // a README beside the projects
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("reading %s: %w", p, err)
		}
		page, err := parsePage(project, src)
		if err != nil {
			return fmt.Errorf("rendering %s: %w", p, err)
		}
		if out[project] == nil {
			out[project] = map[string]*section{}
		}
		out[project][doc] = page
		return nil
	})
	return out, err
}

// parsePage renders a Markdown page into its sections: the first heading is
// the page's top section, every later heading opens a section nested in the
// nearest one of a lower level, and the blocks between headings belong to
// the section above them. Relative image sources become media URLs of
// project.
func parsePage(project string, src []byte) (*section, error) {
	doc := markdown.Parser().Parse(text.NewReader(src))
	var top *section
	var stack []*section
	var levels []int
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			id, _ := h.AttributeString("id")
			idStr, _ := id.([]byte)
			s := &section{id: string(idStr), title: plainText(h, src)}
			for len(levels) > 0 && levels[len(levels)-1] >= h.Level {
				stack, levels = stack[:len(stack)-1], levels[:len(levels)-1]
			}
			switch {
			case top == nil:
				top = s
			case len(stack) == 0:
				return nil, fmt.Errorf("heading %q is not inside the page's first heading", s.title)
			default:
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, s)
			}
			stack, levels = append(stack, s), append(levels, h.Level)
			continue
		}
		if top == nil {
			return nil, fmt.Errorf("content before the page's first heading")
		}
		rewriteImages(n, project)
		var b bytes.Buffer
		if err := markdown.Renderer().Render(&b, src, n); err != nil {
			return nil, err
		}
		s := stack[len(stack)-1]
		s.blocks = append(s.blocks, strings.TrimRight(b.String(), "\n"))
	}
	if top == nil {
		return nil, fmt.Errorf("no heading")
	}
	return top, nil
}

// rewriteImages points relative image sources under n (like
// ../_images/flow.svg) at the project's media files.
func rewriteImages(n ast.Node, project string) {
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		img, ok := c.(*ast.Image)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		dest := string(img.Destination)
		if strings.Contains(dest, "://") || strings.HasPrefix(dest, "/") || strings.Contains(dest, ":") {
			return ast.WalkContinue, nil
		}
		img.Destination = []byte(mediaScheme + project + "/" + path.Base(dest))
		return ast.WalkContinue, nil
	})
}

// plainText is the text of a heading without its markup.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
