package web

import (
	"fmt"
	"sync"
	"testing"
)

var printSandboxSizes sync.Once

// BenchmarkSandboxWasmSize reports the size of the static explorer's sandbox module
// (wasm/sandboxes), raw and as served (gzip and brotli), beside app.wasm's.
func BenchmarkSandboxWasmSize(b *testing.B) {
	sizes := builtSizes(b, "sandboxes.wasm", "sandboxes.wasm.gz", "sandboxes.wasm.br", "app.wasm")
	for b.Loop() {
		_ = len(sizes)
	}
	b.ReportMetric(sizes["sandboxes.wasm"], "raw-KB")
	b.ReportMetric(sizes["sandboxes.wasm.gz"], "gzip-KB")
	b.ReportMetric(sizes["sandboxes.wasm.br"], "brotli-KB")
	printSandboxSizes.Do(func() {
		fmt.Printf("sandboxes.wasm (static explorer, loaded on the first Send) raw %7.0f KB  gzip %6.0f KB  brotli %6.0f KB  (%.2fx app.wasm raw)\n",
			sizes["sandboxes.wasm"], sizes["sandboxes.wasm.gz"], sizes["sandboxes.wasm.br"], sizes["sandboxes.wasm"]/sizes["app.wasm"])
	})
}
