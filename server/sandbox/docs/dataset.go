package docs

import (
	"cmp"
	"slices"
	"strings"
)

// dataset is the fixed data, each list in the order its endpoint returns it.
type dataset struct {
	projects []Project // by slug, like the Project model's ordering
	versions []Version // by verbose name, descending, then ID
	builds   []Build   // most recent first, then by ID descending
	byID     map[int]Project
	pages    map[string]map[string]*section // project slug -> doc name -> page
}

// newDataset builds the dataset from Projects, Versions, Builds and the pages.
func newDataset() *dataset {
	d := &dataset{projects: Projects(), versions: Versions(), builds: Builds(), byID: map[int]Project{}}
	slices.SortStableFunc(d.projects, func(a, b Project) int { return strings.Compare(a.Slug, b.Slug) })
	slices.SortStableFunc(d.versions, func(a, b Version) int {
		return cmp.Or(strings.Compare(b.VerboseName, a.VerboseName), a.ID-b.ID)
	})
	slices.SortStableFunc(d.builds, func(a, b Build) int {
		return cmp.Or(strings.Compare(b.Date, a.Date), b.ID-a.ID)
	})
	for _, p := range d.projects {
		d.byID[p.ID] = p
	}
	d.pages = pages()
	return d
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
	return versionBody{Version: v, Project: d.byID[v.ProjectID]}
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

// Projects returns the sandbox's projects: pip (ID 6, the document's
// example), kitchen-sink (ID 17, whose "untrusted" page holds hostile HTML)
// and mkdocs (ID 53, an MkDocs project without embeddable pages).
func Projects() []Project {
	return []Project{
		{
			ID: 6, Name: "Pip", Slug: "pip", ProgrammingLanguage: "py",
			DefaultVersion: "stable", DefaultBranch: "main", RepoType: "git",
			Repo: "https://github.com/pypa/pip", Description: "Pip Installs Packages.",
			Language: "en", DocumentationType: "sphinx_htmldir",
			CanonicalURL: "https://pip.pypa.io/en/stable/", Users: []int{3, 4517},
		},
		{
			ID: 17, Name: "Kitchen Sink", Slug: "kitchen-sink", ProgrammingLanguage: "py",
			DefaultVersion: "latest", DefaultBranch: "main", RepoType: "git",
			Repo: "https://github.com/loupe-demo/kitchen-sink",
			Description: "Every Sphinx construct on one site, including a page of untrusted HTML " +
				"for testing sanitizers.",
			Language: "en", DocumentationType: "sphinx",
			CanonicalURL: "https://kitchen-sink.readthedocs.io/en/latest/", Users: []int{4517, 88210},
		},
		{
			ID: 53, Name: "MkDocs", Slug: "mkdocs", ProgrammingLanguage: "py",
			DefaultVersion: "latest", DefaultBranch: "master", RepoType: "git",
			Repo: "https://github.com/mkdocs/mkdocs", Description: "Project documentation with Markdown.",
			Language: "en", DocumentationType: "mkdocs",
			CanonicalURL: "https://mkdocs.readthedocs.io/en/latest/", Users: []int{1022},
		},
	}
}
