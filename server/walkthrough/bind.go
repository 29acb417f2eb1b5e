package walkthrough

import (
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"loupe/app/catalog"
	"loupe/server/walkthrough/flow"
)

// Sources says which of Loupe's APIs a walkthrough's source descriptions are. A source
// description is matched, in order: by its name in Names (an explicit mapping from the
// configuration), by its url resolved against the document's location in Documents (the
// OpenAPI documents Loupe serves, by location), then by its name being an API's slug.
type Sources struct {
	// Names maps a source description's name to an API slug. Nil means none.
	Names map[string]string
	// Documents maps an OpenAPI document's location (a cleaned file path, or a URL) to the slug
	// of the API it describes. Nil means none.
	Documents map[string]string
}

// resolveURL resolves a source description's url against the document's location: a URL
// stays one, a relative reference is joined to the document's folder.
func resolveURL(docFile, ref string) string {
	if u, err := url.Parse(ref); err == nil && u.Scheme != "" {
		return ref
	}
	if b, err := url.Parse(docFile); err == nil && b.Scheme != "" {
		if u, err := url.Parse(ref); err == nil {
			return b.ResolveReference(u).String()
		}
	}
	if filepath.IsAbs(ref) {
		return filepath.Clean(ref)
	}
	if filepath.IsAbs(docFile) {
		return filepath.Join(filepath.Dir(docFile), ref)
	}
	return path.Join(path.Dir(docFile), ref)
}

// bindSources finds each source description's API.
func (l *loader) bindSources(doc *flow.Document, r node) map[string]*catalog.API {
	out := map[string]*catalog.API{}
	for i, s := range doc.Sources {
		at := r.key("sourceDescriptions").items()[i]
		if s.Type == "arazzo" {
			l.p.add(at.key("type"), "source description %s is an Arazzo document: running workflows of another document is not supported; copy the workflow into this one", s.Name)
			continue
		}
		loc := resolveURL(l.file, s.URL)
		slug, ok := l.opts.Names[s.Name]
		if !ok {
			slug, ok = l.opts.Documents[loc]
		}
		if !ok && l.cat.API(s.Name) != nil {
			slug, ok = s.Name, true
		}
		api := l.cat.API(slug)
		if !ok || api == nil {
			var slugs []string
			for _, a := range l.cat.APIs {
				slugs = append(slugs, a.Slug)
			}
			l.p.add(at.key("url"), "source description %s (%s) is none of Loupe's APIs (%s): add its OpenAPI document under apis.<slug>.openapi in the configuration, name the source after an API's slug, or map it under walkthroughs[].sources",
				s.Name, loc, strings.Join(slugs, ", "))
			continue
		}
		out[s.Name] = api
	}
	return out
}

// operationPathRe reads an operationPath: the source's url expression, then a JSON pointer
// into its document, to an operation (paths, path, method) or to a path item with one.
var operationPathRe = regexp.MustCompile(`^\{\$sourceDescriptions\.([A-Za-z0-9_\-]+)\.url\}#/paths/([^/]+)(?:/([a-zA-Z]+))?$`)

// bindOperation finds the operation an operationId or operationPath names.
func (l *loader) bindOperation(st *flow.Step, at node, apis map[string]*catalog.API, doc *flow.Document) {
	v := at.str()
	var found []*flow.Operation
	var where []string
	add := func(source string, op *catalog.Operation) {
		found = append(found, &flow.Operation{Source: source, ID: op.ID, Method: op.Method, Path: op.Path})
	}
	if strings.HasSuffix(at.ptr, "/operationPath") {
		m := operationPathRe.FindStringSubmatch(v)
		if m == nil {
			l.p.add(at, "operationPath %q: expected '{$sourceDescriptions.<name>.url}#/paths/<path, / written ~1>/<method>'", v)
			return
		}
		api := apis[m[1]]
		if api == nil {
			l.p.add(at, "operationPath %q: no source description %s of Loupe's APIs", v, m[1])
			return
		}
		p := strings.ReplaceAll(strings.ReplaceAll(m[2], "~1", "/"), "~0", "~")
		for i := range api.Operations {
			op := &api.Operations[i]
			if op.Path == p && (m[3] == "" || strings.EqualFold(op.Method, m[3])) {
				add(m[1], op)
			}
		}
		if len(found) == 0 {
			l.p.add(at, "step %s: %q is no operation: %s has no %s", st.ID, v, api.Title, strings.TrimSpace(strings.ToUpper(m[3])+" "+p))
			return
		}
		where = append(where, api.Title)
	} else {
		id := v
		sources := sortedKeys(apis)
		if rest, ok := strings.CutPrefix(v, "$sourceDescriptions."); ok {
			name, opID, _ := strings.Cut(rest, ".")
			if apis[name] == nil {
				l.p.add(at, "operationId %q: no source description %s of Loupe's APIs", v, name)
				return
			}
			sources, id = []string{name}, opID
		}
		for _, name := range sources {
			if op := apis[name].Operation(id); op != nil {
				add(name, op)
			}
			where = append(where, apis[name].Title)
		}
	}
	switch {
	case len(found) == 1:
		*st.Operation = *found[0]
		l.checkPathParams(st, at)
	case len(found) == 0 && len(where) == 0:
		l.p.add(at, "step %s: %q cannot be looked up: no source description was matched to one of Loupe's APIs (see the problem at sourceDescriptions)", st.ID, v)
	case len(found) == 0:
		l.p.add(at, "step %s: %q is no operation of %s", st.ID, v, strings.Join(where, " or "))
	default:
		l.p.add(at, "step %s: %q is an operation of more than one source description: write $sourceDescriptions.<name>.%s, or an operationPath", st.ID, v, v)
	}
	_ = doc
}

// checkPathParams refuses a path parameter the operation's path does not have: it could go
// nowhere.
func (l *loader) checkPathParams(st *flow.Step, at node) {
	for _, p := range st.Parameters {
		if p.In == "path" && !strings.Contains(st.Operation.Path, "{"+p.Name+"}") {
			l.p.add(at, "step %s: parameter %s in path: %s %s has no {%s}", st.ID, p.Name, st.Operation.Method, st.Operation.Path, p.Name)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
