package docs

import (
	"cmp"
	"slices"
	"strings"
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
	for _, b := range Builds() {
		if v := versions[b.Version]; v.PrivacyLevel == "public" {
			d.builds = append(d.builds, complete(b, d.byID[b.Project], v))
		}
	}
	slices.SortStableFunc(d.projects, func(a, b Project) int { return strings.Compare(a.Slug, b.Slug) })
	slices.SortStableFunc(d.versions, func(a, b Version) int {
		return cmp.Or(strings.Compare(b.VerboseName, a.VerboseName), a.ID-b.ID)
	})
	slices.SortStableFunc(d.builds, func(a, b Build) int {
		return cmp.Or(strings.Compare(b.Date, a.Date), b.ID-a.ID)
	})
	d.pages = mustPages()
	return d
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
