package web

import (
	"fmt"
	"io/fs"
	"sync"
	"testing"
)

var printSandboxSizes sync.Once

// staticModules lists the static explorer's modules the build holds: one per built-in API
// (sandbox-<slug>.wasm), the APIs of your own's (own.wasm) and the walkthrough engine's
// (walkthroughs.wasm).
func staticModules(b *testing.B) []string {
	b.Helper()
	names, _ := fs.Glob(FS, "sandbox-*.wasm") // the pattern is valid
	if len(names) == 0 {
		b.Fatal("no web/sandbox-<slug>.wasm is built: run `make wasm` first")
	}
	return append(names, "own.wasm", "walkthroughs.wasm")
}

// BenchmarkSandboxWasmSize reports the size of each of the static explorer's modules, raw and
// as served (gzip and brotli), beside app.wasm's: the first Send of an API fetches that API's
// module only. The largest module's brotli size is the metric.
func BenchmarkSandboxWasmSize(b *testing.B) {
	modules := staticModules(b)
	names := []string{"app.wasm"}
	for _, m := range modules {
		names = append(names, m, m+".gz", m+".br")
	}
	sizes := builtSizes(b, names...)
	largest := 0.0
	for b.Loop() {
		for _, m := range modules {
			largest = max(largest, sizes[m+".br"])
		}
	}
	b.ReportMetric(largest, "largest-brotli-KB")
	printSandboxSizes.Do(func() {
		for _, m := range modules {
			fmt.Printf("%-26s (static explorer) raw %7.0f KB  gzip %6.0f KB  brotli %6.0f KB  (%.2fx app.wasm raw)\n",
				m, sizes[m], sizes[m+".gz"], sizes[m+".br"], sizes[m]/sizes["app.wasm"])
		}
	})
}
