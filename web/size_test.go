package web

import (
	"fmt"
	"io/fs"
	"sync"
	"testing"
)

// Anchors from ../shared/reference/perf-anchors.md (main bundle, KB raw / gzip / brotli).
var sizeAnchors = []struct {
	name              string
	raw, gzip, brotli float64
}{
	{"Swagger UI 5.35 bundle", 1692, 449, 351},
	{"Scalar 1.72 bundle", 4251, 1230, 921},
	{"empty go-app v10 app.wasm", 6769, 1869, 1373},
}

var printSizes sync.Once

// BenchmarkAppWasmSize reports the size of the built app.wasm, raw and as served (gzip and
// brotli), beside the anchors. Sizes do not vary between runs; the benchmark loop only reads.
func BenchmarkAppWasmSize(b *testing.B) {
	sizes := builtSizes(b, "app.wasm", "app.wasm.gz", "app.wasm.br")
	for b.Loop() {
		_ = len(sizes)
	}
	b.ReportMetric(sizes["app.wasm"], "raw-KB")
	b.ReportMetric(sizes["app.wasm.gz"], "gzip-KB")
	b.ReportMetric(sizes["app.wasm.br"], "brotli-KB")
	printSizes.Do(func() {
		fmt.Printf("app.wasm (Loupe)                 raw %7.0f KB  gzip %6.0f KB  brotli %6.0f KB\n",
			sizes["app.wasm"], sizes["app.wasm.gz"], sizes["app.wasm.br"])
		for _, a := range sizeAnchors {
			fmt.Printf("anchor: %-24s raw %7.0f KB  gzip %6.0f KB  brotli %6.0f KB  (Loupe gzip = %.2fx)\n",
				a.name, a.raw, a.gzip, a.brotli, sizes["app.wasm.gz"]/a.gzip)
		}
	})
}

// builtSizes returns the size in KB of each named file of the build, failing the benchmark
// with what to run when one is missing.
func builtSizes(b *testing.B, names ...string) map[string]float64 {
	b.Helper()
	sizes := map[string]float64{}
	for _, name := range names {
		data, err := fs.ReadFile(FS, name)
		if err != nil {
			b.Fatalf("%s is not built: run `make wasm` first (%v)", name, err)
		}
		sizes[name] = float64(len(data)) / 1000
	}
	return sizes
}
