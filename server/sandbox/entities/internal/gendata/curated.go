package main

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"

	"loupe/server/sandbox/entities"
)

// curatedColumns is the number of " | "-separated fields of a curated line:
// types | id | en | fr | de | es | ja | aliases | desc en | desc fr | desc de |
// desc es | Wikipedia title | official url | popularity | Commons file | body.
const curatedColumns = 17

// parseCuratedFile reads one curated_*.txt file.
func parseCuratedFile(name string) ([]entities.Record, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", name, err)
	}
	defer f.Close()
	var out []entities.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r, err := parseCuratedLine(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return out, nil
}

func parseCuratedLine(line string) (entities.Record, error) {
	f := strings.Split(line, " | ")
	if len(f) != curatedColumns {
		return entities.Record{}, fmt.Errorf("%d fields, want %d", len(f), curatedColumns)
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	pop, err := strconv.ParseFloat(f[14], 64)
	if err != nil {
		return entities.Record{}, fmt.Errorf("popularity %q: %w", f[14], err)
	}
	id := f[1]
	if !strings.HasPrefix(id, "/m/") {
		id = "/m/0lx_" + strings.ReplaceAll(id, "-", "_")
	}
	r := entities.Record{
		ID:          id,
		Types:       expandTypes(strings.Split(f[0], ",")),
		Name:        map[string]string{},
		Alias:       map[string][]string{},
		Description: map[string]string{},
		URL:         f[13],
		Popularity:  pop,
	}
	for i, lang := range []string{"en", "fr", "de", "es", "ja"} {
		if f[2+i] != "" {
			r.Name[lang] = f[2+i]
		}
	}
	for _, a := range strings.Split(f[7], ";") {
		if a = strings.TrimSpace(a); a != "" && a != r.Name["en"] {
			r.Alias["en"] = append(r.Alias["en"], a)
		}
	}
	for i, lang := range []string{"en", "fr", "de", "es"} {
		if f[8+i] != "" {
			r.Description[lang] = f[8+i]
		}
	}
	title := f[12]
	if title != "" && f[16] != "" {
		r.Article = map[string]entities.Article{"en": {Body: f[16], URL: "https://en.wikipedia.org/wiki/" + title}}
	}
	if f[15] != "" {
		r.Image = commonsImage(f[15])
	}
	return r, nil
}

// expandTypes adds the schema.org supertypes the API also lists, keeping the
// given order first.
func expandTypes(ts []string) []string {
	parents := map[string][]string{
		"Corporation":                    {"Organization"},
		"EducationalOrganization":        {"Organization"},
		"CollegeOrUniversity":            {"EducationalOrganization", "Organization"},
		"SportsTeam":                     {"SportsOrganization", "Organization"},
		"SportsOrganization":             {"Organization"},
		"Book":                           {"CreativeWork"},
		"Movie":                          {"CreativeWork"},
		"MusicAlbum":                     {"MusicPlaylist", "CreativeWork"},
		"Painting":                       {"CreativeWork"},
		"SoftwareApplication":            {"CreativeWork"},
		"TouristAttraction":              {"Place"},
		"LandmarksOrHistoricalBuildings": {"Place"},
		"Country":                        {"AdministrativeArea", "Place"},
		"City":                           {"AdministrativeArea", "Place"},
	}
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if t = strings.TrimSpace(t); t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, t := range ts {
		add(t)
	}
	for _, t := range ts {
		for _, p := range parents[strings.TrimSpace(t)] {
			add(p)
		}
	}
	return out
}

// commonsImage points at a Wikimedia Commons file: the file itself through
// Special:FilePath, its description page, and that page's licensing section.
func commonsImage(file string) *entities.Image {
	esc := url.PathEscape(strings.ReplaceAll(file, " ", "_"))
	page := "https://commons.wikimedia.org/wiki/File:" + esc
	return &entities.Image{
		ContentURL: "https://commons.wikimedia.org/wiki/Special:FilePath/" + esc,
		URL:        page,
		License:    page + "#Licensing",
	}
}
