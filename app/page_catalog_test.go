package app

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/content"
	servercatalog "loupe/server/catalog"
)

// TestPageCatalogRendersTheSamePage: every page that starts from a page catalog renders exactly
// as it does from the whole catalog, so the page catalog holds all the first render reads.
func TestPageCatalogRendersTheSamePage(t *testing.T) {
	full, err := servercatalog.Load(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	cut := 0
	for _, p := range Pages(full) {
		pc := pageCatalog(full, p)
		if pc == nil {
			continue
		}
		cut++
		if got, want := renderedPage(t, pc, p), renderedPage(t, full, p); got != want {
			t.Errorf("%s: the page catalog renders\n%s\nwant\n%s", p, diffAround(got, want), diffAround(want, got))
		}
		if b, _ := json.Marshal(pc); strings.HasPrefix(p, "/entities/") && len(b) > 40_000 {
			t.Errorf("%s: page catalog of %d bytes; want a fraction of the whole", p, len(b))
		}
	}
	if cut < 50 {
		t.Errorf("pages with a page catalog: got %d; want every overview, API and operation page", cut)
	}
}

func TestPageCatalogIsNotForPagesThatReadMore(t *testing.T) {
	cat := testCatalog()
	for _, p := range []string{"/walkthroughs/docs-find-a-section", "/script/workspace", "/history", "/nope", "/docs/nope"} {
		if pageCatalog(cat, p) != nil {
			t.Errorf("pageCatalog(%q): got a page catalog; want nil (the page needs the whole catalog)", p)
		}
	}
	pc := pageCatalog(cat, "/docs/listProjects")
	if pc == nil || pc.Page != "/docs/listProjects" || pc.API("docs").Operations[0].Partial || !pc.API("script").Operations[0].Partial {
		t.Fatalf("pageCatalog(/docs/listProjects): got %+v; want the page's operation whole and the others partial", pc)
	}
	if pageCatalog(pc, "/docs") != nil {
		t.Error("a page catalog cut again: got one; want nil")
	}
}

func TestCompleteCatalog(t *testing.T) {
	full := testCatalog()
	full.Version = "v1"
	full.APIs[1].GuideHTML = "<p>guide</p>"
	full.APIs[1].Operations[0].Summary, full.APIs[1].Operations[0].Path = "List", "/projects"
	pc := pageCatalog(full, "/script/projects.create")
	held := pc.API("script").Operation("projects.create")
	if !completeCatalog(pc, full) {
		t.Fatal("completeCatalog: got false; want the same version completed")
	}
	if got := pc.API("docs"); got.GuideHTML != "<p>guide</p>" || got.Operations[0].Partial || got.Operations[0].Path != "/projects" || pc.Page != "" {
		t.Errorf("completed: got %+v (page %q); want the guide and the whole operation", got, pc.Page)
	}
	if pc.API("script").Operation("projects.create") != held {
		t.Error("completed: the page's operation moved; want the pointer the page holds kept")
	}
	other := testCatalog()
	other.Version = "v2"
	if pc2 := pageCatalog(full, "/docs"); completeCatalog(pc2, other) || pc2.Page == "" {
		t.Error("another version: got it merged; want false and nothing changed")
	}
}

// renderedPage renders the shell at path from cat, attributes sorted (HTMLString writes them in
// any order).
func renderedPage(t *testing.T, cat *catalog.Catalog, path string) string {
	t.Helper()
	s := newShell()
	s.slug, s.opID = parseRoute(path)
	s.cat = cat
	p := &shellUnderTest{s: s}
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return sortAttributes(app.HTMLString(p))
}

// shellUnderTest renders what the shell renders for its route, its children mounted.
type shellUnderTest struct {
	app.Compo
	s *shell
}

func (p *shellUnderTest) Render() app.UI { return p.s.Render() }

var (
	tagRE  = regexp.MustCompile(`<[a-zA-Z][a-zA-Z0-9-]*((?:\s+[^\s=>]+(?:="(?:[^"\\]|\\.)*")?)*)\s*/?>`)
	attrRE = regexp.MustCompile(`[^\s=>]+(?:="(?:[^"\\]|\\.)*")?`)
)

func sortAttributes(html string) string {
	return tagRE.ReplaceAllStringFunc(html, func(tag string) string {
		m := tagRE.FindStringSubmatchIndex(tag)
		attrs := attrRE.FindAllString(tag[m[2]:m[3]], -1)
		sort.Strings(attrs)
		return tag[:m[2]] + " " + strings.Join(attrs, " ") + tag[m[3]:]
	})
}

// diffAround returns a's text around its first difference from b.
func diffAround(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[max(0, i-200):min(len(a), i+200)]
}
