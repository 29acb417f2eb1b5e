package docs

import (
	"fmt"
	"strings"
	"time"
)

// buildFailures are the errors a generated failed build reports, with the
// exit code of the command that failed.
var buildFailures = []struct {
	err  string
	code int
}{
	{"Problem in your project's configuration. Invalid \"python.version\": expected one of (2, 2.7, 3, 3.5, 3.6, 3.7, 3.8), got 3.9", 1},
	{"Sphinx error:\nmaster file /home/docs/checkouts/readthedocs.org/user_builds/{slug}/checkouts/{version}/docs/contents.rst not found", 2},
	{"Build exited due to time out. Builds are limited to 900 seconds.", -1},
	{"ERROR: Could not find a version that satisfies the requirement sphinx-rtd-theme==0.0.9 (from -r docs/requirements.txt (line 2))", 1},
	{"Build exited due to excessive memory consumption", 137},
	{"Config file validation error: Config file not found at /home/docs/checkouts/readthedocs.org/user_builds/{slug}/checkouts/{version}/", 1},
}

// inProgress are the states of builds that have not finished, for the last
// builds of every fourth project.
var inProgress = []string{"triggered", "cloning", "installing", "building"}

// builds returns genBuilds builds of g's public versions, oldest first, each
// of a version that existed at its date: mostly latest, then stable and the
// newest release; about one in nine fails.
func (gen *generator) builds(versions []Version, releases []release) []Build {
	span := genEnd.Sub(genStart)
	byID := map[int]Version{}
	for _, v := range versions {
		byID[v.ID] = v
	}
	out := make([]Build, 0, genBuilds)
	for i := range genBuilds {
		at := genStart.Add(span/genBuilds*time.Duration(i) + time.Duration(gen.rng.IntN(3600*40))*time.Second)
		newest := -1
		for k, r := range releases {
			if !r.at.After(at) && r.version.PrivacyLevel == "public" {
				newest = k
			}
		}
		v := versions[0] // latest
		commit := gen.hex()
		switch r := gen.rng.IntN(10); {
		case newest >= 0 && r < 2:
			v, commit = versions[1], releases[newest].version.Identifier // stable
		case newest >= 0 && r < 5:
			v = releases[newest].version
			commit = v.Identifier
		case r == 9 && len(versions) > len(releases)+2:
			v = versions[2] // the default branch of its own
		}
		b := gen.build(10_000_000+(gen.g.id-100)*1000+i, at, v, commit)
		if !v.Built || gen.rng.IntN(9) == 0 {
			gen.fail(&b)
		}
		if gen.g.id%4 == 0 && i >= genBuilds-2 {
			gen.unfinished(&b, inProgress[(gen.g.id/4+i)%len(inProgress)])
		}
		out = append(out, b)
	}
	return out
}

// build returns a finished, successful build of v at commit, started at at.
func (gen *generator) build(id int, at time.Time, v Version, commit string) Build {
	b := Build{
		ID: id, Date: at.Format(dateLayout), Type: "html", State: "finished", Success: true,
		Commit: ptr(commit), DocsURL: gen.docsURL(v.Slug), Project: gen.g.id, ProjectSlug: gen.p.Slug,
		Version: v.ID, VersionSlug: v.Slug,
	}
	t := at.Add(time.Duration(1+gen.rng.IntN(3)) * time.Second)
	for j, c := range gen.commands(v, commit) {
		run := c.min + gen.rng.IntN(c.spread+1)
		end := t.Add(time.Duration(run)*time.Second + time.Duration(gen.rng.IntN(999_999))*time.Microsecond)
		b.Commands = append(b.Commands, Command{
			ID: 60_000_000 + (id-10_000_000)*8 + j, Build: id, Command: c.line,
			StartTime: t.Format(dateLayout), EndTime: end.Format(dateLayout), RunTime: run, Output: c.output,
		})
		t = end.Add(time.Duration(gen.rng.IntN(2000)) * time.Millisecond)
	}
	b.Length = ptr(int(t.Sub(at).Seconds()))
	return b
}

// fail makes b a failed build: its last command exits with the failure's
// code and output, and the build reports the error.
func (gen *generator) fail(b *Build) {
	f := buildFailures[gen.rng.IntN(len(buildFailures))]
	msg := expand(f.err, gen.p.Slug, b.VersionSlug)
	b.Success, b.Error = false, msg
	last := &b.Commands[len(b.Commands)-1]
	last.ExitCode = f.code
	last.Output += "\n\n" + msg
}

// unfinished makes b a build that is still in state: only the commands of
// the states before it ran, and its length is not known yet.
func (gen *generator) unfinished(b *Build, state string) {
	b.State, b.Success, b.Error, b.Length = state, true, "", nil
	keep := map[string]int{"triggered": 0, "cloning": 1, "installing": 2, "building": 4}[state]
	b.Commands = b.Commands[:min(keep, len(b.Commands))]
	for i := range b.Commands {
		b.Commands[i].ExitCode = 0
	}
}

// docsURL is where version slug of g is served.
func (gen *generator) docsURL(slug string) string {
	return docBase(gen.p, slug)
}

// expand fills {slug} and {version} in a failure message.
func expand(s, slug, version string) string {
	return strings.NewReplacer("{slug}", slug, "{version}", version).Replace(s)
}

// genCommand is one command line a build runs, its output and how long it
// takes (min seconds plus up to spread more).
type genCommand struct {
	line, output string
	min, spread  int
}

// commands returns what a build of v at commit runs for g's tool.
func (gen *generator) commands(v Version, commit string) []genCommand {
	repo := gen.p.Repo + ".git"
	out := []genCommand{
		{"git clone --no-single-branch --depth 50 " + repo + " .", "Cloning into '.'...", 1, 4},
		{"git checkout --force " + commit, "HEAD is now at " + commit[:7] + " Release " + v.VerboseName, 0, 0},
		{"python -m virtualenv $READTHEDOCS_VIRTUALENV_PATH", "created virtual environment CPython3.11.9.final.0-64 in 912ms", 1, 2},
		{"python -m pip install --upgrade --no-cache-dir -r docs/requirements.txt",
			"Successfully installed " + gen.tool() + " and 24 other packages", 8, 40},
	}
	build := fmt.Sprintf("python -m sphinx -T -b %s -d _build/doctrees -D language=%s . $READTHEDOCS_OUTPUT/html",
		map[string]string{"sphinx_htmldir": "dirhtml", "sphinx_singlehtml": "singlehtml"}[gen.p.DocumentationType], gen.p.Language)
	switch gen.p.DocumentationType {
	case "sphinx":
		build = fmt.Sprintf("python -m sphinx -T -b html -d _build/doctrees -D language=%s . $READTHEDOCS_OUTPUT/html", gen.p.Language)
	case "mkdocs", "mkdocs_html":
		build = "python -m mkdocs build --clean --site-dir $READTHEDOCS_OUTPUT/html --config-file mkdocs.yml"
	case "generic":
		build = "make -C docs html BUILDDIR=$READTHEDOCS_OUTPUT"
	}
	return append(out, genCommand{build, "Running " + gen.tool() + "\nbuild succeeded.", 6, 90})
}

// tool names the documentation tool g builds with.
func (gen *generator) tool() string {
	switch gen.p.DocumentationType {
	case "mkdocs", "mkdocs_html":
		return "mkdocs-1.5.3"
	case "generic":
		return "make"
	}
	return "Sphinx v7.2.6"
}
