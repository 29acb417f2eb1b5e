package docs

// Project is a documentation project, with the fields of the contract in the
// order the document's examples show them.
type Project struct {
	ID                  int    `json:"id"`
	Name                string `json:"name"`
	Slug                string `json:"slug"`
	ProgrammingLanguage string `json:"programming_language"`
	DefaultVersion      string `json:"default_version"`
	DefaultBranch       string `json:"default_branch"`
	RepoType            string `json:"repo_type"`
	Repo                string `json:"repo"`
	Description         string `json:"description"`
	Language            string `json:"language"`
	DocumentationType   string `json:"documentation_type"`
	CanonicalURL        string `json:"canonical_url"`
	Users               []int  `json:"users"`
}

// Downloads maps an offline format (pdf, htmlzip, epub) to its
// protocol-relative URL path; formats that are not built are absent.
type Downloads map[string]string

// Version is one version of a project's documentation. In the dataset Project
// holds the project's ID only; the API embeds the full Project (see
// versionBody).
type Version struct {
	ID           int       `json:"id"`
	Slug         string    `json:"slug"`
	VerboseName  string    `json:"verbose_name"`
	Built        bool      `json:"built"`
	Active       bool      `json:"active"`
	Type         string    `json:"type"`
	Identifier   string    `json:"identifier"`
	PrivacyLevel string    `json:"privacy_level"`
	Downloads    Downloads `json:"downloads"`
	ProjectID    int       `json:"-"`
}

// versionBody is a Version as the API sends it, with its project embedded.
type versionBody struct {
	Version
	Project Project `json:"project"`
}

// Build is a build of one version, with the commands it ran.
type Build struct {
	ID          int       `json:"id"`
	Date        string    `json:"date"`
	Length      *int      `json:"length"`
	Type        string    `json:"type"`
	State       string    `json:"state"`
	Success     bool      `json:"success"`
	Error       string    `json:"error"`
	Commit      *string   `json:"commit"`
	DocsURL     string    `json:"docs_url"`
	Project     int       `json:"project"`
	ProjectSlug string    `json:"project_slug"`
	Version     int       `json:"version"`
	VersionSlug string    `json:"version_slug"`
	Commands    []Command `json:"commands"`
}

// Command is one command a build ran, with its output.
type Command struct {
	ID          int    `json:"id"`
	Build       int    `json:"build"`
	Command     string `json:"command"`
	Description string `json:"description"`
	StartTime   string `json:"start_time"`
	EndTime     string `json:"end_time"`
	RunTime     int    `json:"run_time"`
	ExitCode    int    `json:"exit_code"`
	Output      string `json:"output"`
}

// page is the envelope of a paged list.
type page[T any] struct {
	Count    int     `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []T     `json:"results"`
}

// activeVersionsBody is the body of listProjectActiveVersions.
type activeVersionsBody struct {
	Versions []versionBody `json:"versions"`
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
