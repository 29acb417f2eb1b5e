package app

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"loupe/app/catalog"
	"loupe/content"
	servercatalog "loupe/server/catalog"
)

// TestDecodeReadsEveryCatalogTheAppReads: the whole catalog of the built-in APIs and every
// page catalog cut from it decode with catalog.Decode as with json.Unmarshal.
func TestDecodeReadsEveryCatalogTheAppReads(t *testing.T) {
	full, err := servercatalog.Load(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, p := range append([]string{""}, Pages(full)...) {
		cat := full
		if p != "" {
			if cat = pageCatalog(full, p); cat == nil {
				continue
			}
			pages++
		}
		b, err := json.Marshal(cat)
		if err != nil {
			t.Fatal(err)
		}
		var want catalog.Catalog
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		got, err := catalog.Decode(b)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		if !reflect.DeepEqual(got, &want) {
			t.Errorf("%q: catalog.Decode and json.Unmarshal read different catalogs", p)
		}
	}
	if pages < 50 {
		t.Errorf("page catalogs decoded: got %d; want every overview, API and operation page", pages)
	}
}

var printDecode sync.Once

// BenchmarkDecodePageCatalog decodes the page catalog of /entities/entities.search, what the
// wasm reads before its first render, with catalog.Decode and, as the anchor, with
// json.Unmarshal into a Catalog (which calls API.UnmarshalJSON for each API). Native figures;
// the browser's are about 15 times slower, in the same ratio. Run it in the wasm too:
// GOOS=js GOARCH=wasm go test -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" -run X -bench DecodePageCatalog ./app
func BenchmarkDecodePageCatalog(b *testing.B) {
	full, err := servercatalog.Load(content.FS)
	if err != nil {
		b.Fatal(err)
	}
	page := "/entities/entities.search"
	data, err := json.Marshal(pageCatalog(full, page))
	if err != nil {
		b.Fatal(err)
	}
	ns := map[string]float64{}
	for _, bm := range []struct {
		name   string
		decode func() error
	}{
		{"json.Unmarshal", func() error { var c catalog.Catalog; return json.Unmarshal(data, &c) }},
		{"catalog.Decode", func() error { _, err := catalog.Decode(data); return err }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if err := bm.decode(); err != nil {
					b.Fatal(err)
				}
			}
			ns[bm.name] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		})
	}
	printDecode.Do(func() {
		fmt.Printf("page catalog of %s (%d bytes): catalog.Decode %.0f µs, anchor json.Unmarshal %.0f µs: %.2fx\n",
			page, len(data), ns["catalog.Decode"]/1e3, ns["json.Unmarshal"]/1e3, ns["catalog.Decode"]/ns["json.Unmarshal"])
	})
}
