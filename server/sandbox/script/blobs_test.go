package script

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"loupe/server/sandbox/state"
)

// TestVersionsBounded saves 40 different 1 MiB sources, making a version of each: the versions
// keep at most MaxVersionBytes of content (the ones past it are refused with 429), the heap
// does not grow by the 40 MiB they would take, and an unchanged source is stored once.
func TestVersionsBounded(t *testing.T) {
	c := &clock{}
	c.set(t, "2026-11-20T12:10:00Z")
	// The session may store more than the versions' bound, which is the one under test.
	roomy := state.NewRegistry(state.NewMemory(), state.Options{Limits: state.Limits{MaxBytes: 64 << 20}})
	h := New(Options{Now: c.now, MaxVersionBytes: 8 << 20, State: roomy})
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	save := func(i int) {
		src := fmt.Sprintf("// %d\n//%s\nfunction f() {\n  return %d;\n}\n", i, strings.Repeat("x", 1<<20), i)
		mustCall(t, h, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":`+js(src)+`}]}`)
	}
	before := heap()
	made, refused := 0, 0
	for i := range 40 {
		save(i)
		code, v := call(t, h, "POST", "/v1/projects/"+SeedScriptID+"/versions", `{}`)
		switch st, _ := errorOf(v); {
		case code == 200:
			made++
		case code == 429 && st == "RESOURCE_EXHAUSTED":
			refused++
		default:
			t.Fatalf("version %d: got %d %s; want 200 or 429", i, code, js(v))
		}
	}
	grown := int64(heap()) - int64(before)
	if made != 7 || refused != 33 {
		t.Errorf("versions: got %d made, %d refused; want 7 made (8 MiB), 33 refused", made, refused)
	}
	if grown > 20<<20 {
		t.Errorf("heap: grew by %.1f MiB for 40 versions; want at most 20 MiB", float64(grown)/(1<<20))
	}
	// The same content again and again takes no more room.
	h = New(Options{Now: c.now, MaxVersionBytes: 2 << 20})
	save(1)
	for i := range 10 {
		if code, v := call(t, h, "POST", "/v1/projects/"+SeedScriptID+"/versions", `{}`); code != 200 {
			t.Fatalf("unchanged version %d: got %d %s; want 200", i, code, js(v))
		}
	}
}
