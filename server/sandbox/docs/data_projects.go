package docs

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
