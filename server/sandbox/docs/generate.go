package docs

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Generation bounds: every generated project's history runs from its first
// release in genStart to genEnd, with genBuilds builds.
var (
	genStart = time.Date(2019, 1, 7, 9, 0, 0, 0, time.UTC)
	genEnd   = time.Date(2024, 10, 28, 18, 0, 0, 0, time.UTC)
)

const (
	genBuilds  = 111                          // builds of each generated project
	dateLayout = "2006-01-02T15:04:05.000000" // Django's ISO format without a time zone
)

// generator builds one project's versions and builds from a random source
// seeded by the project's ID, so the dataset is the same on every run.
type generator struct {
	g   genProject
	p   Project
	rng *rand.Rand
}

// generate returns g's versions and builds.
func generate(g genProject) ([]Version, []Build) {
	gen := &generator{g: g, p: g.project(), rng: rand.New(rand.NewPCG(uint64(g.id), 15))}
	releases := gen.releases()
	versions := gen.versions(releases)
	return versions, gen.builds(versions, releases)
}

// release is a generated release tag and when it was made.
type release struct {
	version Version
	at      time.Time
}

// releases returns g's release tags, oldest first, spread over the
// generation period: active and built for the newest eight, otherwise
// inactive, some never built, and one private tag in every third project.
func (gen *generator) releases() []release {
	n := gen.g.releases
	major, minor, patch := gen.rng.IntN(3), gen.rng.IntN(4), 0
	span := genEnd.Sub(genStart)
	out := make([]release, n)
	for i := range n {
		switch r := gen.rng.IntN(10); {
		case r < 1 && i > 0:
			major, minor, patch = major+1, 0, 0
		case r < 5 && i > 0:
			minor, patch = minor+1, 0
		case i > 0:
			patch++
		}
		name := fmt.Sprintf("%d.%d.%d", major, minor, patch)
		if gen.p.ProgrammingLanguage == "go" || gen.p.ProgrammingLanguage == "js" {
			name = "v" + name
		}
		old := i < n-8
		v := Version{
			ID: gen.g.id*1000 + 100 + i, Slug: name, VerboseName: name, Built: !old || gen.rng.IntN(5) > 0,
			Active: !old, Type: "tag", Identifier: gen.hex(), PrivacyLevel: "public", ProjectID: gen.g.id,
		}
		if i == 2 && gen.g.id%3 == 0 {
			v.PrivacyLevel = "private"
		}
		v.Downloads = gen.downloads(v)
		at := genStart.Add(span/time.Duration(n)*time.Duration(i) + time.Duration(gen.rng.IntN(72))*time.Hour)
		out[i] = release{v, at}
	}
	return out
}

// versions returns g's versions: latest, stable (following the newest
// release), the default version when it is a branch of its own, and the
// release tags.
func (gen *generator) versions(releases []release) []Version {
	branch := func(id int, slug, ident string) Version {
		v := Version{ID: id, Slug: slug, VerboseName: slug, Built: true, Active: true, Type: "branch",
			Identifier: ident, PrivacyLevel: "public", ProjectID: gen.g.id}
		v.Downloads = gen.downloads(v)
		return v
	}
	newest := releases[len(releases)-1].version
	stable := branch(gen.g.id*1000+2, "stable", newest.Identifier)
	stable.Type = "tag"
	out := []Version{branch(gen.g.id*1000+1, "latest", gen.g.branch), stable}
	if d := gen.g.defaultVersion; d != "latest" && d != "stable" {
		out = append(out, branch(gen.g.id*1000+3, d, d))
	}
	for _, r := range releases {
		out = append(out, r.version)
	}
	return out
}

// downloads returns the offline formats a built version of g has: zipped
// HTML for Sphinx and MkDocs, PDF and EPUB for half the Sphinx projects,
// nothing for generic builds.
func (gen *generator) downloads(v Version) Downloads {
	if !v.Built {
		return Downloads{}
	}
	switch gen.p.DocumentationType {
	case "generic":
		return Downloads{}
	case "mkdocs", "mkdocs_html":
		return downloads(gen.p.Slug, v.Slug, "htmlzip")
	}
	if gen.g.id%2 == 0 {
		return downloads(gen.p.Slug, v.Slug, "pdf", "htmlzip", "epub")
	}
	return downloads(gen.p.Slug, v.Slug, "htmlzip")
}

// hex returns a random 40-digit commit hash.
func (gen *generator) hex() string {
	return fmt.Sprintf("%016x%016x%08x", gen.rng.Uint64(), gen.rng.Uint64(), gen.rng.Uint32())
}
