package e2e

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// The page-load benchmark's figures: each one's median over the rounds, printed beside the
// same figure of Swagger UI (printPageLoads) and of the empty go-app app (printBesideEmptyApp),
// with their ratio.

// pageFigures are the figures printed for each network and visit, in ms or KB.
var pageFigures = []struct {
	name      string
	emptyName string // the name beside the empty go-app app
	get       func(pageLoad) float64
	unit      string
}{
	{"first paint", "first paint", func(p pageLoad) float64 { return p.FirstPaint }, "ms"},
	{"first contentful paint", "first contentful paint", func(p pageLoad) float64 { return p.FirstContent }, "ms"},
	{"app.wasm received", "app.wasm received", func(p pageLoad) float64 { return p.WasmIn }, "ms"},
	{"operation usable", "Send-ready / mounted", func(p pageLoad) float64 { return p.Usable }, "ms"},
	{"bytes transferred", "bytes transferred", func(p pageLoad) float64 { return p.Bytes / 1000 }, "KB"},
}

// sendReadyGoal is issue 34's goal for Loupe's Send-ready time on a first visit on Fast 4G, as a
// multiple of the empty go-app app's time to mount on the same network.
const sendReadyGoal = 1.15

// visits names the two loads of a page, in the order of pageLoad pairs ([first, repeat]).
var visits = []string{"first visit", "repeat visit"}

// printPageLoads prints each figure's medians: Loupe's, Swagger UI's and their ratio.
func printPageLoads(netName string, loupe, swagger [2][]pageLoad) {
	for v, visit := range visits {
		for _, f := range pageFigures {
			l, s := medianOf(loupe[v], f.get), medianOf(swagger[v], f.get)
			fmt.Printf("%-8s %-12s %-22s  Loupe %7s %s  Swagger UI %7s %s  ratio %s\n", netName, visit, f.name, figure(l), f.unit, figure(s), f.unit, ratioOf(l, s))
		}
	}
}

// printBesideEmptyApp prints each figure's medians, Loupe's, the empty go-app app's and their
// ratio, then for each visit Loupe's Send-ready time beside the empty app's mount, with the goal
// on a first visit on Fast 4G.
func printBesideEmptyApp(netName string, loupe, empty [2][]pageLoad) {
	for v, visit := range visits {
		for _, f := range pageFigures {
			l, e := medianOf(loupe[v], f.get), medianOf(empty[v], f.get)
			fmt.Printf("%-8s %-12s %-22s  Loupe %7s %s  empty go-app %7s %s  ratio %s\n", netName, visit, f.emptyName, figure(l), f.unit, figure(e), f.unit, ratioOf(l, e))
		}
		get := func(p pageLoad) float64 { return p.Usable }
		l, e := medianOf(loupe[v], get), medianOf(empty[v], get)
		goal := ""
		if netName == "Fast 4G" && v == 0 {
			goal = fmt.Sprintf(" (goal <= %.2fx)", sendReadyGoal)
		}
		fmt.Printf("%-8s %-12s Send-ready ÷ empty go-app mounted: Loupe %s ms, empty app %s ms, ratio %s%s\n",
			netName, visit, figure(l), figure(e), strings.TrimSpace(ratioOf(l, e)), goal)
	}
}

// ratioOf prints the ratio of Loupe's median l to another page's median o: an upper bound when
// only the other page never became usable, "-" when one was not measured or Loupe's never
// became usable.
func ratioOf(l, o float64) string {
	switch {
	case math.IsNaN(l) || math.IsNaN(o):
	case math.IsInf(o, 1) && !math.IsInf(l, 1):
		return fmt.Sprintf("<%.3fx", l/usableLimit.Seconds()/1000)
	case o > 0 && !math.IsInf(l, 1):
		return fmt.Sprintf("%5.2fx", l/o)
	}
	return "    -"
}

// usableLimit is how long a page has to make its operation usable; past it the page's figure
// is printed as a lower bound (">120000 ms") and its repeat visit is not measured.
const usableLimit = 120 * time.Second

// figure prints a median, the lower bound of one that never arrived, or "-" when it was not
// measured.
func figure(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	if math.IsInf(v, 1) {
		return fmt.Sprintf(">%.0f", usableLimit.Seconds()*1000)
	}
	return fmt.Sprintf("%.0f", v)
}

// medianOf is the median of the figures that were measured (NaN: not measured), or NaN when
// none was.
func medianOf(loads []pageLoad, get func(pageLoad) float64) float64 {
	var vs []float64
	for _, l := range loads {
		if v := get(l); !math.IsNaN(v) {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return math.NaN()
	}
	sort.Float64s(vs)
	return vs[len(vs)/2]
}

// recordedOnly returns p with the times the browser did not record (-1 from loadFigures: a
// paint entry missing on some repeat visits, Swagger UI's app.wasm) as not measured, so that
// they are printed as "-" and left out of the medians rather than counted as 0 ms.
func (p pageLoad) recordedOnly() pageLoad {
	if p.FirstPaint < 0 {
		p.FirstPaint = math.NaN()
	}
	if p.FirstContent < 0 {
		p.FirstContent = math.NaN()
	}
	for _, t := range []*float64{&p.WasmIn, &p.CompileCall, &p.Compiled, &p.GoMain, &p.Routes, &p.Mounted} {
		if *t < 0 {
			*t = math.NaN()
		}
	}
	return p
}
