package wasmsize

import (
	"strings"
	"testing"
)

// module builds a wasm module with one imported function, the given function bodies and a
// name section naming every function (the import first).
func module(names []string, bodies []int) []byte {
	leb := func(v int) []byte {
		var out []byte
		for {
			c := byte(v & 0x7f)
			v >>= 7
			if v != 0 {
				out = append(out, c|0x80)
				continue
			}
			return append(out, c)
		}
	}
	str := func(s string) []byte { return append(leb(len(s)), s...) }
	section := func(id byte, body []byte) []byte { return append(append([]byte{id}, leb(len(body))...), body...) }

	out := []byte("\x00asm\x01\x00\x00\x00")
	imp := append(leb(1), str("go")...)
	imp = append(imp, str("debug")...)
	imp = append(imp, 0, 0) // function, type 0
	out = append(out, section(sectionImport, imp)...)
	code := leb(len(bodies))
	for _, n := range bodies {
		code = append(code, leb(n)...)
		code = append(code, make([]byte, n)...)
	}
	out = append(out, section(sectionCode, code)...)
	fn := leb(len(names))
	for i, n := range names {
		fn = append(fn, leb(i)...)
		fn = append(fn, str(n)...)
	}
	name := append(str("name"), 1)
	name = append(name, leb(len(fn))...)
	return append(out, section(sectionCustom, append(name, fn...))...)
}

func TestAnalyze(t *testing.T) {
	wasm := module([]string{"go.debug", "runtime.mallocgc", "github.com_a_b.__T_.M", "runtime.gcStart", "github.com_a_b.F"},
		[]int{300, 20, 200, 1})
	rep, err := Analyze(wasm)
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Packages
	want := []Package{{"runtime", 500, 2}, {"github.com_a_b", 21, 2}}
	if len(got) != len(want) {
		t.Fatalf("got %v; want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("package %d: got %+v; want %+v", i, got[i], want[i])
		}
	}
	if rep.Total != len(wasm) || rep.Names == 0 || rep.Code < 521 {
		t.Errorf("got total %d, code %d, names %d; want total %d, code over 521, names over 0", rep.Total, rep.Code, rep.Names, len(wasm))
	}
}

func TestAnalyzeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		wasm []byte
		want string
	}{
		{"not wasm", []byte("<html>"), "not a WebAssembly module"},
		{"stripped", []byte("\x00asm\x01\x00\x00\x00"), "without -ldflags=-s"},
		{"truncated", append(module([]string{"a.b"}, []int{5}), 10, 50), "truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Analyze(tc.wasm)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v; want one containing %q", err, tc.want)
			}
		})
	}
}

func TestPackageOf(t *testing.T) {
	for _, tc := range []struct{ sym, want string }{
		{"runtime.mallocgc", "runtime"},
		{"runtime.__pageAlloc_.sysGrow", "runtime"},
		{"internal_strconv.AppendInt", "internal_strconv"},
		{"github.com_yuin_goldmark_util.ToRune", "github.com_yuin_goldmark_util"},
		{"golang.org_x_net_html.__Tokenizer_.Next", "golang.org_x_net_html"},
		{"go.yaml.in_yaml_v4.Unmarshal", "go.yaml.in_yaml_v4"},
		{"type_.eq._1_time.zoneTrans", "type_"},
		{"loupe_app.newSidebar", "loupe_app"},
		{"nodot", "nodot"},
		{"", "(unnamed)"},
	} {
		if got := PackageOf(tc.sym); got != tc.want {
			t.Errorf("PackageOf(%q): got %q; want %q", tc.sym, got, tc.want)
		}
	}
}
