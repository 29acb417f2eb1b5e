package docs

import "encoding/json"

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
	// CustomPrefix is the project's custom URL prefix, nil for the default
	// /<language>/<version>/.
	CustomPrefix *string `json:"custom_prefix"`
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

// versionBody is a Version as the API sends it, with its project embedded
// and the fields the real serializer derives: which downloads exist and the
// project's documentation type.
type versionBody struct {
	Version
	Project           Project `json:"project"`
	HasPDF            bool    `json:"has_pdf"`
	HasEpub           bool    `json:"has_epub"`
	HasHTMLZip        bool    `json:"has_htmlzip"`
	DocumentationType string  `json:"documentation_type"`
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

	// The real serializer's other fields (every model field but builder,
	// plus state_display, commit_url and config).
	Status                *string        `json:"status"`                  // external builds only; null otherwise
	Healthcheck           *string        `json:"healthcheck"`             // last heartbeat of a running build
	VersionName           string         `json:"version_name"`            // the version's verbose name
	VersionType           string         `json:"version_type"`            // the version's type
	ReadTheDocsYAMLConfig map[string]any `json:"readthedocs_yaml_config"` // the parsed configuration file, or null
	ReadTheDocsYAMLPath   *string        `json:"readthedocs_yaml_path"`   // a custom configuration path, or null
	ColdStorage           *bool          `json:"cold_storage"`            // whether the commands were archived
	TaskID                string         `json:"task_id"`                 // the build task's ID, "" for old builds
	TaskExecutedAt        *string        `json:"task_executed_at"`        // when the task started, or null
	StateDisplay          string         `json:"state_display"`           // the state as shown to people
	CommitURL             *string        `json:"commit_url"`              // the commit on the repository's site, or null
	Config                map[string]any `json:"config"`                  // the configuration the build used
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

// page is the envelope of a paged list. Its results are records encoded ahead (the
// dataset's encoded lists), so a call encodes only the envelope (AppendJSON).
type page struct {
	Count    int               `json:"count"`
	Next     *string           `json:"next"`
	Previous *string           `json:"previous"`
	Results  []json.RawMessage `json:"results"`
}

// activeVersionsBody is the body of listProjectActiveVersions.
type activeVersionsBody struct {
	Versions []versionBody `json:"versions"`
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
