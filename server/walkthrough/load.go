package walkthrough

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/pb33f/libopenapi"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
	"loupe/server/walkthrough/flow"
)

// Suffixes end the names of walkthrough files.
var Suffixes = []string{".arazzo.yaml", ".arazzo.yml", ".arazzo.json"}

// displayRoot prefixes file names in errors: the fs.FS Load reads is the content directory.
const displayRoot = "content"

// Load reads the built-in walkthroughs, walkthroughs/*.arazzo.yaml of fsys (the content
// directory), and checks each against cat; their source descriptions name the shipped
// documents (../openapi/<slug>.yaml). The error joins every problem of every file.
func Load(fsys fs.FS, cat *catalog.Catalog) (*Set, error) {
	names, err := fs.Glob(fsys, "walkthroughs/*.arazzo.*")
	if err != nil {
		return nil, fmt.Errorf("walkthroughs: listing documents: %w", err)
	}
	docs := map[string]string{}
	for _, a := range cat.APIs {
		docs["openapi/"+a.Slug+".yaml"] = a.Slug
	}
	var files []File
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path.Join(displayRoot, name), err)
		}
		files = append(files, File{Name: name, Display: path.Join(displayRoot, name), Data: data})
	}
	return LoadFiles(files, cat, Sources{Documents: docs})
}

// File is a walkthrough document to load.
type File struct {
	// Name is where the document is: its source descriptions' relative urls are resolved
	// against it.
	Name string
	// Display is its name as errors show it; empty means Name.
	Display string
	// Data is the document.
	Data []byte
	// Sources maps source description names to API slugs for this file (the configuration's
	// walkthroughs[].sources); nil means none.
	Sources map[string]string
}

// LoadFiles loads documents into a set. Two documents with the same id are an error. The
// error joins every problem of every file.
func LoadFiles(files []File, cat *catalog.Catalog, src Sources) (*Set, error) {
	set := &Set{}
	var errs []error
	hash := sha256.New()
	for _, f := range files {
		fmt.Fprintf(hash, "%s %d\n", f.Name, len(f.Data))
		hash.Write(f.Data)
		s := src
		if len(f.Sources) > 0 {
			s.Names = f.Sources
		}
		w, err := parse(f, cat, s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if other := set.Get(w.ID); other != nil {
			errs = append(errs, fmt.Errorf("%s: walkthrough %s is also %s: rename one of them", w.File, w.ID, other.File))
			continue
		}
		if i := slices.IndexFunc(w.Aliases, func(a string) bool { return set.Get(a) != nil }); i >= 0 {
			errs = append(errs, fmt.Errorf("%s: info.x-loupe-aliases: %s names %s: remove the alias", w.File, w.Aliases[i], set.Get(w.Aliases[i]).File))
			continue
		}
		set.list = append(set.list, w)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	set.version = hex.EncodeToString(hash.Sum(nil))[:12]
	return set, nil
}

// Parse loads one document; file names it in errors and gives its id (the base name without
// its suffix), and its source descriptions' relative urls are resolved against it.
func Parse(file string, data []byte, cat *catalog.Catalog, src Sources) (*Walkthrough, error) {
	return parse(File{Name: file, Data: data}, cat, src)
}

// ID is the walkthrough id of a file name: its base name without its suffix.
func ID(name string) string {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	for _, s := range Suffixes {
		if strings.HasSuffix(base, s) {
			return strings.TrimSuffix(base, s)
		}
	}
	return strings.TrimSuffix(base, path.Ext(base))
}

// loader holds what loading one document needs.
type loader struct {
	file string
	cat  *catalog.Catalog
	opts Sources
	p    *problems
}

func parse(f File, cat *catalog.Catalog, src Sources) (*Walkthrough, error) {
	display := f.Display
	if display == "" {
		display = f.Name
	}
	errAt := func(line int, format string, args ...any) error {
		return &Problem{File: display, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	var y yaml.Node
	if err := yaml.Unmarshal(f.Data, &y); err != nil {
		return nil, errAt(yamlErrorLine(err), "not an Arazzo document: it is neither YAML nor JSON: %v", err)
	}
	if len(y.Content) == 0 {
		return nil, errAt(1, "not an Arazzo document: the file is empty")
	}
	r := root(&y)
	if !r.key("arazzo").present() {
		return nil, errAt(r.line(), "not an Arazzo document: it has no arazzo field (an Arazzo document starts with arazzo: 1.0.1)")
	}
	if _, err := libopenapi.NewArazzoDocument(f.Data); err != nil {
		return nil, errAt(yamlErrorLine(err), "not an Arazzo document: %v", err)
	}
	l := &loader{file: f.Name, cat: cat, opts: src, p: &problems{}}
	c := &compiler{p: l.p, ops: map[*flow.Step]node{}}
	doc := c.document(r)
	apis := l.bindSources(doc, r)
	for _, wf := range doc.Workflows {
		for _, st := range wf.Steps {
			if at, ok := c.ops[st]; ok {
				l.bindOperation(st, at, apis, doc)
			}
		}
	}
	l.checkWorkflows(doc, r)
	if len(l.p.list) > 0 {
		slices.SortStableFunc(l.p.list, func(a, b problem) int { return a.at.line() - b.at.line() })
		var errs []error
		for _, p := range l.p.list {
			errs = append(errs, &Problem{File: display, Line: p.at.line(), Pointer: p.at.ptr, Msg: p.msg})
		}
		return nil, errors.Join(errs...)
	}
	w := &Walkthrough{ID: ID(f.Name), File: display, Doc: doc, Workflow: doc.Workflows[0], APIs: apis, Data: f.Data,
		Title: r.key("info").key("title").str(), Summary: r.key("info").key("summary").str(), Description: r.key("info").key("description").str()}
	for _, a := range r.key("info").key("x-loupe-aliases").items() {
		w.Aliases = append(w.Aliases, a.str())
	}
	w.API = apis[doc.Sources[0].Name]
	return w, nil
}

// yamlErrorLine finds the line a YAML syntax error names, 0 when none.
func yamlErrorLine(err error) int {
	var line int
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		fmt.Sscanf(msg[i:], "line %d", &line)
	} else if i := strings.Index(msg, " at L"); i >= 0 {
		fmt.Sscanf(msg[i:], " at L%d", &line)
	}
	return line
}
