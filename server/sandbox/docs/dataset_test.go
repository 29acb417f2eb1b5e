package docs

import (
	"testing"
)

// TestDatasetSize wants the dataset at real size and varied: at least 20
// projects, 300 versions and 2,000 builds an anonymous client sees, over
// several programming languages, documentation types, default versions,
// documentation languages, privacy levels, build states and failures.
func TestDatasetSize(t *testing.T) {
	d := sharedDataset()
	if got := len(d.projects); got < 20 {
		t.Errorf("projects: got %d; want at least 20", got)
	}
	if got := len(d.versions); got < 300 {
		t.Errorf("versions: got %d; want at least 300", got)
	}
	if got := len(d.builds); got < 2000 {
		t.Errorf("builds: got %d; want at least 2000", got)
	}
	distinct := func(name string, values []string, want int) {
		t.Helper()
		set := map[string]bool{}
		for _, v := range values {
			set[v] = true
		}
		if len(set) < want {
			t.Errorf("%s: got %d distinct (%v); want at least %d", name, len(set), set, want)
		}
	}
	var langs, types, defaults, docLangs []string
	for _, p := range d.projects {
		langs, types = append(langs, p.ProgrammingLanguage), append(types, p.DocumentationType)
		defaults, docLangs = append(defaults, p.DefaultVersion), append(docLangs, p.Language)
	}
	distinct("programming languages", langs, 8)
	distinct("documentation types", types, 6)
	distinct("default versions", defaults, 3)
	distinct("documentation languages", docLangs, 3)
	var privacy []string
	for _, v := range Versions() {
		privacy = append(privacy, v.PrivacyLevel)
	}
	distinct("privacy levels", privacy, 2)
	var states, errors []string
	lengths := 0
	for _, b := range d.builds {
		states = append(states, b.State)
		if !b.Success {
			errors = append(errors, b.Error)
		}
		if b.Length != nil {
			lengths++
		}
		if len(b.Commands) == 0 && b.State != "triggered" {
			t.Errorf("build %d (%s): no commands", b.ID, b.State)
		}
	}
	distinct("build states", states, 5)
	distinct("build errors", errors, 5)
	if lengths == len(d.builds) || lengths < len(d.builds)*9/10 {
		t.Errorf("builds with a length: got %d of %d; want most, not all (running builds have none)", lengths, len(d.builds))
	}
}

// TestDatasetConsistent checks what the bodies promise: unique IDs, each
// build's version belongs to its project, and its slugs and names match.
func TestDatasetConsistent(t *testing.T) {
	d := sharedDataset()
	versions := map[int]Version{}
	for _, v := range d.versions {
		if _, dup := versions[v.ID]; dup {
			t.Errorf("version ID %d: duplicate", v.ID)
		}
		if _, ok := d.byID[v.ProjectID]; !ok {
			t.Errorf("version %d: unknown project %d", v.ID, v.ProjectID)
		}
		versions[v.ID] = v
	}
	builds := map[int]bool{}
	for _, b := range d.builds {
		if builds[b.ID] {
			t.Errorf("build ID %d: duplicate", b.ID)
		}
		builds[b.ID] = true
		v, ok := versions[b.Version]
		switch {
		case !ok:
			t.Errorf("build %d: version %d is not listed", b.ID, b.Version)
		case v.ProjectID != b.Project || v.Slug != b.VersionSlug || v.VerboseName != b.VersionName || v.Type != b.VersionType:
			t.Errorf("build %d: version fields %d/%s/%s/%s disagree with version %+v", b.ID, b.Project, b.VersionSlug, b.VersionName, b.VersionType, v)
		case d.byID[b.Project].Slug != b.ProjectSlug:
			t.Errorf("build %d: project_slug %s; want %s", b.ID, b.ProjectSlug, d.byID[b.Project].Slug)
		case b.StateDisplay == "" || b.Config == nil:
			t.Errorf("build %d: state_display %q, config %v; want both", b.ID, b.StateDisplay, b.Config)
		}
	}
}
