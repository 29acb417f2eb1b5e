// Command wasm is the Loupe app compiled to WebAssembly (GOOS=js GOARCH=wasm).
package main

import (
	"math"
	"runtime/debug"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	loupe "loupe/app"
)

// startupHeap is how far the heap may grow before the first collection while the app starts.
// Starting (the catalog's megabyte of JSON decoded, the first page rendered) allocates about
// 9 MB, most of it live; the default GC, whose first target is 4 MB, collects two or three
// times on the way, on the one thread the page also waits on. Bounded, so a start that
// allocates more than expected still collects instead of taking the tab's memory.
const startupHeap = 64 << 20

// startup is how long the startup collection policy lasts; the default GC takes over after it.
const startup = 5 * time.Second

func main() {
	mark("loupe:main")
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(startupHeap)
	time.AfterFunc(startup, func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
	loupe.Routes()
	mark("loupe:routes")
	app.RunWhenOnBrowser()
}

// mark records a User Timing mark (performance.mark) on the page: the start-up's steps, from
// Go's main (the runtime and every package initialized) and after the routes (the page catalog
// read), show in the browser's performance panel and the page-load benchmark reads them.
func mark(name string) { app.Window().Get("performance").Call("mark", name) }
