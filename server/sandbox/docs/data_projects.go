package docs

// Projects returns the sandbox's projects: pip (ID 6, the document's
// example), kitchen-sink (ID 17, whose "untrusted" page holds hostile HTML),
// mkdocs (ID 53, an MkDocs project without embeddable pages) and the
// projects of generatedProjects, whose versions and builds are generated.
func Projects() []Project {
	out := fixedProjects()
	for _, g := range generatedProjects {
		out = append(out, g.project())
	}
	return out
}

// fixedProjects are the projects written out in full, with their versions
// and builds in data_versions.go and data_builds.go.
func fixedProjects() []Project {
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

// genProject describes a project whose versions and builds are generated
// (see generate.go): the fields that vary, the rest follow from them.
type genProject struct {
	id                      int
	slug, name, description string
	lang, docLang           string // programming language code, documentation language code
	docType                 string // documentation_type
	defaultVersion          string // default_version
	branch                  string // default_branch
	host                    string // github.com, gitlab.com or bitbucket.org
	domain                  string // custom domain, or "" for <slug>.readthedocs.io
	prefix                  *string
	releases                int // release tags to generate
	users                   []int
}

// generatedProjects are the projects with generated versions and builds:
// several programming languages, documentation types, default versions,
// documentation languages and hosts. Their order is their ID order.
var generatedProjects = []genProject{
	{101, "tidewater", "Tidewater", "Tide predictions from harmonic constituents.", "py", "en", "sphinx_htmldir", "stable", "main", "github.com", "tidewater.dev", nil, 16, []int{2210}},
	{102, "lantern-js", "Lantern.js", "A small reactive view layer for the browser.", "js", "en", "sphinx", "latest", "main", "github.com", "", nil, 15, []int{3320, 3321}},
	{103, "gopherbox", "Gopherbox", "Sandboxed plugin runtime for Go services.", "go", "en", "mkdocs", "latest", "master", "github.com", "", nil, 14, []int{4001}},
	{104, "quill-orm", "Quill ORM", "A typed query builder and ORM for PostgreSQL.", "py", "en", "sphinx_htmldir", "stable", "main", "gitlab.com", "docs.quill-orm.org", nil, 16, []int{5120, 5121, 5122}},
	{105, "beacon-cpp", "Beacon", "Header-only service discovery for C++17.", "cpp", "en", "sphinx", "latest", "develop", "github.com", "", nil, 14, []int{6001}},
	{106, "marmot", "Marmot", "Background jobs for Ruby on a single Redis.", "ruby", "en", "mkdocs_html", "latest", "main", "github.com", "", nil, 15, []int{7004}},
	{107, "kettle", "Kettle", "A tiny build tool that boils Makefiles down to Python.", "py", "en", "sphinx_singlehtml", "latest", "main", "bitbucket.org", "", nil, 14, []int{8008}},
	{108, "ledgerline", "Ledgerline", "Double-entry bookkeeping primitives for the JVM.", "java", "en", "sphinx", "3.x", "main", "github.com", "", nil, 15, []int{9100, 9101}},
	{109, "plover-php", "Plover", "Routing and middleware for PHP 8.", "php", "en", "generic", "latest", "main", "github.com", "", nil, 14, []int{9200}},
	{110, "orbitkit", "OrbitKit", "Orbit propagation and ground tracks in TypeScript.", "ts", "en", "mkdocs", "stable", "main", "github.com", "", nil, 15, []int{9310}},
	{111, "salt-flats", "Salt Flats", "Flat-file content management with Markdown front matter.", "py", "en", "sphinx", "stable", "main", "github.com", "", nil, 15, []int{9420}},
	{112, "hexgrid", "Hexgrid", "Hexagonal grid maths for games.", "c", "en", "mkdocs", "latest", "trunk", "github.com", "", nil, 14, []int{9530}},
	{113, "nimbus-sdk", "Nimbus SDK", "Client library for the Nimbus weather data API.", "go", "en", "sphinx_htmldir", "stable", "main", "github.com", "sdk.nimbus-weather.net", ptr("/reference/"), 16, []int{9640, 9641}},
	{114, "tessellate", "Tessellate", "Polygon triangulation and mesh repair.", "cpp", "en", "sphinx_htmldir", "latest", "main", "gitlab.com", "", nil, 14, []int{9750}},
	{115, "datenfluss", "Datenfluss", "Datenpipelines in Python mit Rückverfolgung.", "py", "de", "sphinx", "latest", "main", "github.com", "", nil, 14, []int{9860}},
	{116, "sakura-ui", "Sakura UI", "Accessible form components.", "js", "ja", "sphinx", "latest", "main", "github.com", "", nil, 14, []int{9970}},
	{117, "juliet-stats", "Juliet Stats", "Robust statistics for Julia.", "julia", "en", "generic", "stable", "main", "github.com", "", nil, 14, []int{10080}},
	{118, "field-notes", "Field Notes", "A handbook for running community workshops.", "words", "en", "sphinx", "latest", "main", "github.com", "", nil, 14, []int{10190, 10191}},
}

// project is the Project g describes.
func (g genProject) project() Project {
	host := g.slug + ".readthedocs.io"
	if g.domain != "" {
		host = g.domain
	}
	prefix := "/" + g.docLang + "/"
	if g.prefix != nil {
		prefix = *g.prefix
	}
	return Project{
		ID: g.id, Name: g.name, Slug: g.slug, ProgrammingLanguage: g.lang,
		DefaultVersion: g.defaultVersion, DefaultBranch: g.branch, RepoType: "git",
		Repo: "https://" + g.host + "/loupe-demo/" + g.slug, Description: g.description,
		Language: g.docLang, DocumentationType: g.docType,
		CanonicalURL: "https://" + host + prefix + g.defaultVersion + "/", Users: g.users,
		CustomPrefix: g.prefix,
	}
}
