package docs

import (
	"crypto/sha1"
	"fmt"
	"strings"
	"time"
)

// stateDisplay is how the real service names each build state for people.
var stateDisplay = map[string]string{
	"triggered": "Triggered", "cloning": "Cloning", "installing": "Installing",
	"building": "Building", "finished": "Finished",
}

// complete fills the fields of b that follow from its project p and version
// v, as the real serializer derives them: the version's name and type, the
// state for people, the commit on the repository's site, the configuration
// the build used (shared with the other builds that used the same, see buildConfigs), and the
// task fields (builds before 2020 predate them).
func complete(b Build, p Project, v Version, configs buildConfigs) Build {
	b.VersionName, b.VersionType = v.VerboseName, v.Type
	b.StateDisplay = stateDisplay[b.State]
	b.ColdStorage = ptr(b.Date < "2021")
	if b.Commit != nil {
		b.CommitURL = commitURL(p.Repo, *b.Commit)
	}
	b.Config = configs.of(p, v, b.Date)
	if b.Date >= "2020" {
		sum := sha1.Sum([]byte(fmt.Sprint(b.ID)))
		b.TaskID = fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
		if at, err := time.Parse(dateLayout, b.Date); err == nil {
			b.TaskExecutedAt = ptr(at.Add(1200 * time.Millisecond).Format(dateLayout))
			if b.State != "finished" {
				b.Healthcheck = ptr(at.Add(15 * time.Second).Format(dateLayout))
			}
		}
	}
	return b
}

// commitURL links commit on the repository's site, or nil for a host the
// service does not know, like the real Build.get_commit_url.
func commitURL(repo, commit string) *string {
	repo = strings.TrimSuffix(repo, ".git")
	switch {
	case strings.Contains(repo, "github.com/"):
		return ptr(repo + "/commit/" + commit)
	case strings.Contains(repo, "gitlab.com/"):
		return ptr(repo + "/commit/" + commit)
	case strings.Contains(repo, "bitbucket.org/"):
		return ptr(repo + "/commits/" + commit)
	}
	return nil
}

// buildConfigs holds the one configuration the builds of a version used before 2023 and the one
// they used since, shared by those builds and never changed: each of the dataset's builds held a
// tree of maps of its own, 6 MB of the server's idle heap.
type buildConfigs map[buildConfigKey]map[string]any

type buildConfigKey struct {
	project, version int
	since2023        bool
}

// of is buildConfig's configuration for a build of v of p at date.
func (c buildConfigs) of(p Project, v Version, date string) map[string]any {
	k := buildConfigKey{p.ID, v.ID, date >= "2023"}
	cfg, ok := c[k]
	if !ok {
		cfg = buildConfig(p, v, date)
		c[k] = cfg
	}
	return cfg
}

// buildConfig is the configuration a build of v of p at date used: the
// configuration file's version 2 (the service's defaults before 2023, when
// build.os became required), with the offline formats v has.
func buildConfig(p Project, v Version, date string) map[string]any {
	formats := []any{}
	for _, f := range []string{"htmlzip", "pdf", "epub"} {
		if _, ok := v.Downloads[f]; ok {
			formats = append(formats, f)
		}
	}
	tools := map[string]any{"python": "3"}
	if date >= "2023" {
		tools = map[string]any{"python": "3.11"}
	}
	build := map[string]any{"os": "ubuntu-22.04", "tools": tools, "jobs": map[string]any{}, "apt_packages": []any{}}
	if date < "2023" {
		build = map[string]any{"image": "readthedocs/build:latest", "apt_packages": []any{}}
	}
	cfg := map[string]any{
		"version": "2", "formats": formats, "build": build,
		"python":     map[string]any{"install": []any{map[string]any{"requirements": "docs/requirements.txt"}}},
		"submodules": map[string]any{"include": []any{}, "exclude": []any{}, "recursive": false},
		"search":     map[string]any{"ranking": map[string]any{}, "ignore": []any{"search.html", "404.html"}},
	}
	switch p.DocumentationType {
	case "mkdocs", "mkdocs_html":
		cfg["mkdocs"] = map[string]any{"configuration": "mkdocs.yml", "fail_on_warning": false}
	case "generic":
		build["commands"] = []any{"make -C docs html BUILDDIR=$READTHEDOCS_OUTPUT"}
	default:
		builder := map[string]string{"sphinx_htmldir": "dirhtml", "sphinx_singlehtml": "singlehtml"}[p.DocumentationType]
		if builder == "" {
			builder = "html"
		}
		cfg["sphinx"] = map[string]any{"builder": builder, "configuration": "docs/conf.py", "fail_on_warning": false}
	}
	return cfg
}
