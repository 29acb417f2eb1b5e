package docs

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"loupe/server/sandbox/drf"
)

// dataset is the data the API shows an anonymous client, each list in the
// order its endpoint returns it. Private versions and their builds exist in
// the generated data but are left out, as the real service leaves them out
// of every answer to a client that is not a maintainer.
type dataset struct {
	projects []Project // by slug, like the Project model's ordering
	versions []Version // by verbose name, descending, then ID
	builds   []Build   // most recent first, then by ID descending
	byID     map[int]Project
	pages    map[string]map[string]*section // project slug -> doc name -> page
	// projectsJSON, versionsJSON and buildsJSON are the lists' records as the API sends
	// them (a version with its project, see body), encoded once: the data never changes, so
	// a page of a list encodes only its envelope.
	projectsJSON, versionsJSON, buildsJSON []json.RawMessage
}

// newDataset builds the dataset from Projects, Versions, Builds and the pages.
func newDataset() *dataset {
	d := &dataset{projects: Projects(), byID: map[int]Project{}}
	for _, p := range d.projects {
		d.byID[p.ID] = p
	}
	versions := map[int]Version{}
	for _, v := range Versions() {
		versions[v.ID] = v
		if v.PrivacyLevel == "public" {
			d.versions = append(d.versions, v)
		}
	}
	configs := buildConfigs{}
	for _, b := range Builds() {
		if v := versions[b.Version]; v.PrivacyLevel == "public" {
			d.builds = append(d.builds, complete(b, d.byID[b.Project], v, configs))
		}
	}
	slices.SortStableFunc(d.projects, func(a, b Project) int { return strings.Compare(a.Slug, b.Slug) })
	slices.SortStableFunc(d.versions, func(a, b Version) int {
		return cmp.Or(strings.Compare(b.VerboseName, a.VerboseName), a.ID-b.ID)
	})
	slices.SortStableFunc(d.builds, func(a, b Build) int {
		return cmp.Or(strings.Compare(b.Date, a.Date), b.ID-a.ID)
	})
	d.projectsJSON = mustEncodeEach(d.projects, func(p Project) any { return p })
	d.versionsJSON = mustEncodeEach(d.versions, func(v Version) any { return d.body(v) })
	d.buildsJSON = mustEncodeEach(d.builds, func(b Build) any { return b })
	d.pages = mustPages()
	return d
}

// mustEncodeEach encodes each item's body as drf.WriteJSON would. The dataset is built into
// the program, so an item that does not encode is a bug in it: it panics at start.
//
// The records share one array of exactly their size: each encoded into a buffer of its own held
// that buffer's spare room for as long as the server ran (3 MB of the idle heap).
func mustEncodeEach[T any](items []T, body func(T) any) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	size := 0
	for i, it := range items {
		b, err := drf.Marshal(body(it))
		if err != nil {
			panic(fmt.Sprintf("docs sandbox: encoding its dataset: %v", err))
		}
		out[i] = b
		size += len(b)
	}
	all := make([]byte, 0, size)
	for i, b := range out {
		from := len(all)
		all = append(all, b...)
		out[i] = all[from:len(all):len(all)]
	}
	return out
}

// Versions returns every version: the fixed ones (fixedVersions) and the
// generated ones, private versions included.
func Versions() []Version {
	out := fixedVersions()
	for _, g := range generatedProjects {
		v, _ := generate(g)
		out = append(out, v...)
	}
	return out
}

// Builds returns every build: the fixed ones (fixedBuilds) and the generated
// ones, as recorded (see complete for the fields derived from them).
func Builds() []Build {
	out := fixedBuilds()
	for _, g := range generatedProjects {
		_, b := generate(g)
		out = append(out, b...)
	}
	return out
}

// projectBySlug finds a project by its slug.
func (d *dataset) projectBySlug(slug string) (Project, bool) {
	for _, p := range d.projects {
		if p.Slug == slug {
			return p, true
		}
	}
	return Project{}, false
}

// body returns v as the API sends it, with its project embedded.
func (d *dataset) body(v Version) versionBody {
	p := d.byID[v.ProjectID]
	_, pdf := v.Downloads["pdf"]
	_, epub := v.Downloads["epub"]
	_, zip := v.Downloads["htmlzip"]
	return versionBody{Version: v, Project: p, HasPDF: pdf, HasEpub: epub, HasHTMLZip: zip,
		DocumentationType: p.DocumentationType}
}

// version finds a project's version by its slug.
func (d *dataset) version(projectID int, slug string) (Version, bool) {
	for _, v := range d.versions {
		if v.ProjectID == projectID && v.Slug == slug {
			return v, true
		}
	}
	return Version{}, false
}
