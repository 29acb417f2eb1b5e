package chat

import (
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"strings"
)

// row is one record of the app's inline data set.
type row struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Category string `json:"category"`
	Value    int    `json:"value"`
	Status   string `json:"status"`
	Date     string `json:"date"`
}

var (
	adjectives = []string{"Amber", "Bright", "Calm", "Daring", "Early", "Fresh", "Golden", "Hidden", "Ivory", "Jolly",
		"Keen", "Lucky", "Mellow", "Noble", "Open", "Proud", "Quiet", "Rapid", "Silver", "Tidy", "Urban", "Vivid", "Wild", "Young"}
	fallbackNouns = []string{"task", "project", "report", "note", "order", "idea", "event", "item"}
	categorySets  = [][]string{
		{"North", "South", "East", "West"},
		{"Design", "Build", "Test", "Ship"},
		{"Alpha", "Beta", "Gamma", "Delta"},
		{"Home", "Work", "Travel", "Hobby"},
	}
	statuses = []string{"active", "paused", "done"}
)

// makeRows generates n records about noun (plural; "" for mixed nouns).
func makeRows(rng *rand.Rand, n int, noun string) []row {
	cats := categorySets[rng.IntN(len(categorySets))]
	one := singular(noun)
	rows := make([]row, n)
	for i := range rows {
		name := one
		if name == "" {
			name = fallbackNouns[rng.IntN(len(fallbackNouns))]
		}
		rows[i] = row{
			ID:       i + 1,
			Name:     adjectives[rng.IntN(len(adjectives))] + " " + name,
			Category: cats[rng.IntN(len(cats))],
			Value:    10 + rng.IntN(981),
			Status:   statuses[rng.IntN(len(statuses))],
			Date:     sampleDate(1+(i*7)%12, 1+(i*11)%28),
		}
	}
	return rows
}

// sampleDate is "2026-mm-dd" for a month and day of two digits at most, written without fmt:
// an answer holds up to maxRows of them.
func sampleDate(month, day int) string {
	b := []byte("2026-00-00")
	b[5], b[6] = '0'+byte(month/10), '0'+byte(month%10)
	b[8], b[9] = '0'+byte(day/10), '0'+byte(day%10)
	return string(b)
}

// app is everything the page is generated from.
type app struct {
	spec    spec
	kinds   []kind // sections, in page order
	heading string
	rows    []row
	images  []imageInfo
	note    string // what the tools returned, plain text
	hasData bool   // a section shows the records; without one, DATA is left out
}

// dataKinds are the sections that show the whole data set.
var dataKinds = map[kind]bool{kindList: true, kindTable: true, kindChart: true, kindGallery: true, kindCards: true}

// kindLabels name the kinds in headings and in the plan.
var kindLabels = map[kind]string{
	kindCards: "Summary", kindForm: "Form", kindCounter: "Counter", kindTimer: "Stopwatch", kindChart: "Chart",
	kindList: "List", kindTable: "Table", kindGallery: "Gallery", kindDashboard: "Dashboard",
}

// newApp lays out the sections for s. A dashboard is summary cards, a chart
// and a table; a request for many rows or a long answer adds a table when no
// section would show the data.
func newApp(s spec, rows []row, images []imageInfo, note string) app {
	want := map[kind]bool{}
	for _, k := range s.kinds {
		if k == kindDashboard {
			want[kindCards], want[kindChart], want[kindTable] = true, true, true
			continue
		}
		want[k] = true
	}
	needsData := s.target > 0 || s.rows != defaultRows
	hasData := false
	for k := range want {
		hasData = hasData || dataKinds[k]
	}
	if needsData && !hasData {
		want[kindTable] = true
	}
	a := app{spec: s, rows: rows, images: images, note: note}
	for _, k := range pageOrder {
		if want[k] {
			a.kinds = append(a.kinds, k)
		}
	}
	a.heading = heading(s)
	for _, k := range a.kinds {
		a.hasData = a.hasData || dataKinds[k]
	}
	return a
}

// heading is the app's title: the prompt's subject and the kind asked for.
func heading(s spec) string {
	if len(s.kinds) == 1 {
		label := kindLabels[s.kinds[0]]
		if s.kinds[0] == kindTimer && s.countdown > 0 {
			label = "Countdown"
		}
		return strings.TrimSpace(s.title + " " + label)
	}
	if s.title != "" {
		return s.title
	}
	labels := make([]string, len(s.kinds))
	for i, k := range s.kinds {
		labels[i] = kindLabels[k]
	}
	return strings.Join(labels, " & ")
}

// render writes the complete single-file HTML document into b: straight into the answer,
// rather than built apart and copied in.
func (a app) render(b *strings.Builder) {
	title := html.EscapeString(a.heading)
	b.WriteString("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(b, "<title>%s</title>\n<style>\n%s", title, baseCSS)
	for _, k := range a.kinds {
		b.WriteString(sectionOf(k).css)
	}
	b.WriteString("</style>\n</head>\n<body>\n<header>\n")
	fmt.Fprintf(b, "  <h1>%s</h1>\n", title)
	fmt.Fprintf(b, "  <p class=\"muted\">%s</p>\n", html.EscapeString(a.subtitle()))
	if a.note != "" {
		fmt.Fprintf(b, "  <p class=\"note\">%s</p>\n", html.EscapeString(a.note))
	}
	b.WriteString("</header>\n<main>\n")
	for _, k := range a.kinds {
		b.WriteString(sectionOf(k).html(a))
	}
	b.WriteString("</main>\n<script>\n\"use strict\";\n")
	if a.hasData {
		b.WriteString(a.dataJS())
	}
	for _, k := range a.kinds {
		b.WriteString(sectionOf(k).js(a))
	}
	b.WriteString("</script>\n</body>\n</html>\n")
}

// subtitle describes the data under the heading.
func (a app) subtitle() string {
	if !a.hasData {
		return "Everything runs offline in this one file."
	}
	noun := a.spec.noun
	if noun == "" {
		noun = "records"
	}
	return fmt.Sprintf("%d sample %s, generated inline. Everything runs offline in this one file.", len(a.rows), noun)
}

// dataJS declares DATA, one record per line. encoding/json escapes <, > and
// &, so no value can close the script element.
func (a app) dataJS() string {
	var b strings.Builder
	b.WriteString("const DATA = [\n")
	for _, r := range a.rows {
		line, _ := json.Marshal(r) // a row of strings and ints always marshals
		b.WriteString("  ")
		b.Write(line)
		b.WriteString(",\n")
	}
	b.WriteString("];\n")
	return b.String()
}

// section is the code of one kind: its CSS, markup and script.
type section struct {
	css  string
	html func(a app) string
	js   func(a app) string
}

// sectionOf returns the section for k.
func sectionOf(k kind) section {
	switch k {
	case kindCards:
		return cardsSection
	case kindForm:
		return formSection
	case kindCounter:
		return counterSection
	case kindTimer:
		return timerSection
	case kindChart:
		return chartSection
	case kindList:
		return listSection
	case kindTable:
		return tableSection
	default:
		return gallerySection
	}
}

// fixed returns a func that ignores the app and returns s.
func fixed(s string) func(app) string { return func(app) string { return s } }

// baseCSS styles the page and controls; it follows the system colour scheme.
const baseCSS = `:root { --bg: #f6f7fb; --fg: #1c1d26; --muted: #5d6070; --accent: #4f46e5; --card: #ffffff; --line: #dfe1ea; --ok: #15803d; --bad: #b91c1c; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #14151c; --fg: #ececf3; --muted: #a3a6b8; --accent: #8b84ff; --card: #1e1f29; --line: #343648; --ok: #4ade80; --bad: #f87171; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
header, main { max-width: 960px; margin: 0 auto; padding: 1rem; }
h1 { margin: 0.5rem 0 0; font-size: 1.8rem; }
h2 { margin: 0 0 0.75rem; font-size: 1.2rem; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1rem; margin-bottom: 1rem; }
button { font: inherit; padding: 0.4rem 0.9rem; border-radius: 8px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
input, select, textarea { font: inherit; padding: 0.4rem 0.6rem; border: 1px solid var(--line); border-radius: 8px; background: var(--bg); color: var(--fg); }
.muted { color: var(--muted); }
.note { padding: 0.5rem 0.75rem; border-left: 4px solid var(--accent); background: var(--card); }
.row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-bottom: 0.75rem; }
button.secondary[aria-pressed="true"] { background: var(--accent); color: #fff; }
`
