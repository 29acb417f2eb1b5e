package e2e

import (
	"fmt"
	"math"
	"strings"
)

// Where a page's start-up time goes: the page-load benchmark prints, for each visit, the
// medians of the steps between loading the page and Send-ready, for Loupe and for the empty
// go-app app, from the times usableRecorder and the app's own User Timing marks record
// (wasm/main.go marks loupe:main and loupe:routes).

// startPhases are the steps of a start-up, each from one recorded time to the next. A step
// whose times a page does not record (the empty app has no marks of its own) is left out of its
// line, and the next step counts from the last time it recorded.
var startPhases = []struct {
	name string
	at   func(pageLoad) float64 // the step's end
}{
	{"to the wasm's compile", func(p pageLoad) float64 { return p.CompileCall }},
	{"compile+instantiate", func(p pageLoad) float64 { return p.Compiled }},
	{"Go init to main", func(p pageLoad) float64 { return p.GoMain }},
	{"routes+page catalog", func(p pageLoad) float64 { return p.Routes }},
	{"first render", func(p pageLoad) float64 { return p.Mounted }},
	{"to Send-ready", func(p pageLoad) float64 { return p.Usable }},
}

// printStartPhases prints, for each visit, the median of each step of Loupe's and of the empty
// go-app app's start-up, in ms.
func printStartPhases(netName string, loupe, empty [2][]pageLoad) {
	for v, visit := range visits {
		for _, page := range []struct {
			name  string
			loads []pageLoad
		}{{"Loupe", loupe[v]}, {"empty go-app", empty[v]}} {
			fmt.Printf("%-8s %-12s start-up steps, %-12s %s\n", netName, visit, page.name+":", phaseLine(page.loads))
		}
	}
}

// phaseLine prints the median duration of each step the loads recorded, in ms.
func phaseLine(loads []pageLoad) string {
	var parts []string
	last := func(pageLoad) float64 { return 0 }
	for _, ph := range startPhases {
		if math.IsNaN(medianOf(loads, ph.at)) {
			continue
		}
		from, to := last, ph.at
		d := medianOf(loads, func(p pageLoad) float64 { return to(p) - from(p) })
		parts = append(parts, fmt.Sprintf("%s %s", ph.name, figure(d)))
		last = ph.at
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " | ")
}
