package wasmsize

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Issue 34's goals for the bytes the first Send of one API fetches in the static explorer (its
// module, as served: brotli), as multiples of the empty go-app app's: the script API's module
// holds a JavaScript runtime.
const (
	moduleGoal       = 1.2
	scriptModuleGoal = 2.0
)

var printModules sync.Once

// BenchmarkStaticModulesBesideEmptyApp prints every module of the static explorer that `make
// wasm` ships (web/sandbox-<slug>.wasm.br, own.wasm.br, walkthroughs.wasm.br) beside the floor
// go-app sets, the empty go-app app built and compressed the same way in this run
// (emptyAppSizes), as a ratio with its goal: the first Send of an API fetches that API's module
// only, and a walkthrough's first run the engine. The metric is the largest ratio of an API
// module other than script's. The figures do not vary between runs.
func BenchmarkStaticModulesBesideEmptyApp(b *testing.B) {
	web := filepath.Join("..", "..", "..", "web")
	names, _ := filepath.Glob(filepath.Join(web, "sandbox-*.wasm")) // the pattern is valid
	if len(names) == 0 {
		b.Fatal("web/sandbox-<slug>.wasm is not built: run `make wasm` first")
	}
	names = append(names, filepath.Join(web, "own.wasm"), filepath.Join(web, "walkthroughs.wasm"))
	type row struct {
		name    string
		raw, br int
		goal    float64 // 0: none
		ratio   float64
	}
	var rows []row
	for _, p := range names {
		raw, err := os.Stat(p)
		if err != nil {
			b.Fatalf("%v: run `make wasm` first", err)
		}
		br, err := os.Stat(p + ".br")
		if err != nil {
			b.Fatalf("%v: run `make wasm` first", err)
		}
		r := row{name: filepath.Base(p), raw: int(raw.Size()), br: int(br.Size()), goal: moduleGoal}
		switch r.name {
		case "sandbox-script.wasm":
			r.goal = scriptModuleGoal
		case "walkthroughs.wasm":
			r.goal = 0 // fetched by a walkthrough, not by a Send
		}
		rows = append(rows, r)
	}
	empty := emptyAppSizes(b)
	worst := 0.0
	for b.Loop() {
		worst = 0
		for i := range rows {
			rows[i].ratio = float64(rows[i].br) / float64(empty[".br"])
			if rows[i].goal == moduleGoal && strings.HasPrefix(rows[i].name, "sandbox-") {
				worst = max(worst, rows[i].ratio)
			}
		}
	}
	b.ReportMetric(worst, "x-empty-worst-api")
	printModules.Do(func() {
		fmt.Printf("%-26s raw %10d  brotli %9d bytes\n", "anchor: empty go-app app", empty[""], empty[".br"])
		for _, r := range rows {
			goal := "no goal (fetched by a walkthrough's first run)"
			if r.goal > 0 {
				verdict := "meets"
				if r.ratio > r.goal {
					verdict = "OVER"
				}
				goal = fmt.Sprintf("goal <= %.1fx: %s", r.goal, verdict)
			}
			fmt.Printf("%-26s raw %10d  brotli %9d bytes = %.2fx the empty app's  (%s)\n", r.name, r.raw, r.br, r.ratio, goal)
		}
	})
}
