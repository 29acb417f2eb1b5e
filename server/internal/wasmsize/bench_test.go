package wasmsize

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// groups name the parts of app.wasm a reader asks about, by package prefix (first match wins).
var groups = []struct{ name, prefix string }{
	{"Loupe's app (loupe/app/...)", "loupe_"},
	{"go-app", "github.com_maxence_charriere_go_app"},
	{"chat Markdown: goldmark", "github.com_yuin_goldmark"},
	{"sanitizing: bluemonday, its CSS parser, x/net/html", "github.com_microcosm_cc_bluemonday"},
	{"sanitizing: bluemonday, its CSS parser, x/net/html", "github.com_aymerick_douceur"},
	{"sanitizing: bluemonday, its CSS parser, x/net/html", "github.com_gorilla_css"},
	{"sanitizing: bluemonday, its CSS parser, x/net/html", "golang.org_x_net_html"},
	{"crypto (crypto/tls's init, through go-app's net/http)", "crypto"},
	{"other third-party", "github.com_"},
	{"other third-party", "golang.org_"},
	{"runtime and the standard library", ""},
}

var printPackages sync.Once

// BenchmarkAppWasmPackages builds the app's wasm with its name section (the shipped build is
// stripped with -s -w, which changes no code) and prints what is in it: the sections, the code
// by group and the 25 largest packages. The figures do not vary between runs.
func BenchmarkAppWasmPackages(b *testing.B) {
	out := filepath.Join(b.TempDir(), "app.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, "./wasm")
	cmd.Dir = filepath.Join("..", "..", "..")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the wasm: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		b.Fatal(err)
	}
	var rep *Report
	for b.Loop() {
		if rep, err = Analyze(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rep.Code)/1000, "code-KB")
	b.ReportMetric(float64(rep.Data)/1000, "data-KB")
	printPackages.Do(func() { fmt.Print(Format(rep, 25)) })
}

// Format prints a report: sections, groups and the top packages.
func Format(rep *Report, top int) string {
	var s strings.Builder
	kb := func(n int) string { return fmt.Sprintf("%7.0f KB", float64(n)/1000) }
	fmt.Fprintf(&s, "app.wasm by section (unstripped build): total %s  code %s  data %s  names %s (dropped by -s -w)\n",
		kb(rep.Total), kb(rep.Code), kb(rep.Data), kb(rep.Names))
	byGroup := map[string]int{}
	var order []string
	for _, p := range rep.Packages {
		for _, g := range groups {
			if strings.HasPrefix(p.Name, g.prefix) {
				if _, ok := byGroup[g.name]; !ok {
					order = append(order, g.name)
				}
				byGroup[g.name] += p.Code
				break
			}
		}
	}
	fmt.Fprintf(&s, "code by group:\n")
	for _, g := range order {
		fmt.Fprintf(&s, "  %s  %5.1f%%  %s\n", kb(byGroup[g]), 100*float64(byGroup[g])/float64(rep.Code), g)
	}
	fmt.Fprintf(&s, "code by package, the %d largest:\n", top)
	for i, p := range rep.Packages {
		if i == top {
			break
		}
		fmt.Fprintf(&s, "  %s  %5d funcs  %s\n", kb(p.Code), p.Funcs, p.Name)
	}
	return s.String()
}
