// Package wasmsize attributes the bytes of a Go WebAssembly module to Go packages: each
// function body's size in the code section, named by the module's name section, is summed
// under the package the function belongs to. It reads the binary format directly (the
// sections it needs are a few length-prefixed vectors), so it needs no toolchain support:
// `go tool nm` does not read wasm.
//
// The module must be built without -ldflags=-s, which drops the name section.
package wasmsize

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Package is the share of one Go package in a module.
type Package struct {
	// Name is the import path, such as "github.com/yuin/goldmark/parser" or "runtime".
	Name string
	// Code is the total size in bytes of the package's function bodies.
	Code int
	// Funcs is the number of the package's functions.
	Funcs int
}

// Report is a module's size broken down by section and by package.
type Report struct {
	// Total is the module's size in bytes.
	Total int
	// Code is the size of the code section (every function body).
	Code int
	// Data is the size of the data section (Go's read-only data, type descriptors, tables).
	Data int
	// Names is the size of the name section, which a -s build drops.
	Names int
	// Packages lists every package's share of the code, largest first.
	Packages []Package
}

const (
	sectionCustom = 0
	sectionImport = 2
	sectionCode   = 10
	sectionData   = 11
)

// Analyze reads a wasm module and attributes its code to packages.
func Analyze(wasm []byte) (*Report, error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module")
	}
	rep := &Report{Total: len(wasm)}
	var bodies []int
	var names map[int]string
	imported := 0
	r := &reader{b: wasm, off: 8}
	for r.off < len(r.b) {
		id := r.byte()
		size := r.uint()
		if r.err != nil || r.off+size > len(r.b) {
			return nil, fmt.Errorf("section at byte %d: truncated", r.off)
		}
		sec := &reader{b: r.b[r.off : r.off+size]}
		switch id {
		case sectionImport:
			imported = countFuncImports(sec)
		case sectionCode:
			rep.Code = size
			bodies = codeBodies(sec)
		case sectionData:
			rep.Data = size
		case sectionCustom:
			if sec.name() == "name" {
				rep.Names = size
				names = funcNames(sec)
			}
		}
		if sec.err != nil {
			return nil, fmt.Errorf("section %d: %w", id, sec.err)
		}
		r.off += size
	}
	if names == nil {
		return nil, errors.New("the module has no name section: build it without -ldflags=-s")
	}
	byPkg := map[string]*Package{}
	for i, n := range bodies {
		pkg := PackageOf(names[imported+i])
		p := byPkg[pkg]
		if p == nil {
			p = &Package{Name: pkg}
			byPkg[pkg] = p
		}
		p.Code += n
		p.Funcs++
	}
	for _, p := range byPkg {
		rep.Packages = append(rep.Packages, *p)
	}
	sort.Slice(rep.Packages, func(i, j int) bool {
		a, b := rep.Packages[i], rep.Packages[j]
		if a.Code != b.Code {
			return a.Code > b.Code
		}
		return a.Name < b.Name
	})
	return rep, nil
}

// PackageOf returns the package of a function as the wasm name section spells it: the Go
// linker writes "github.com/a/b-c.(*T).M" as "github.com_a_b_c.__T_.M", so the package is
// "github.com_a_b_c". Names are split at the first dot that does not end a host name
// ("github.com", "golang.org", "go.yaml.in"); "runtime.mallocgc" gives "runtime".
func PackageOf(sym string) string {
	if sym == "" {
		return "(unnamed)"
	}
	start := 0
	if u := strings.IndexByte(sym, '_'); u > 0 {
		host := sym[:u]
		if d := strings.LastIndexByte(host, '.'); d > 0 && topLevelDomains[host[d+1:]] {
			start = u
		}
	}
	if d := strings.IndexByte(sym[start:], '.'); d >= 0 {
		return sym[:start+d]
	}
	return sym
}

// topLevelDomains are the last labels of the module hosts a Go build names.
var topLevelDomains = map[string]bool{"com": true, "org": true, "net": true, "io": true, "in": true, "dev": true}

func countFuncImports(r *reader) int {
	n, funcs := r.uint(), 0
	for i := 0; i < n && r.err == nil; i++ {
		r.name()
		r.name()
		switch kind := r.byte(); kind {
		case 0: // function: type index
			r.uint()
			funcs++
		case 1: // table: reftype, limits
			r.byte()
			r.limits()
		case 2: // memory: limits
			r.limits()
		case 3: // global: valtype, mutability
			r.byte()
			r.byte()
		default:
			r.err = fmt.Errorf("import kind %d", kind)
		}
	}
	return funcs
}

func codeBodies(r *reader) []int {
	n := r.uint()
	out := make([]int, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		size := r.uint()
		out = append(out, size)
		r.off += size
	}
	return out
}

func funcNames(r *reader) map[int]string {
	names := map[int]string{}
	for r.off < len(r.b) && r.err == nil {
		sub := r.byte()
		size := r.uint()
		end := r.off + size
		if sub == 1 { // function names: vec(index, name)
			n := r.uint()
			for i := 0; i < n && r.err == nil; i++ {
				idx := r.uint()
				names[idx] = r.name()
			}
		}
		r.off = end
	}
	return names
}

// reader reads the binary format's primitives, keeping the first error.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) byte() byte {
	if r.off >= len(r.b) {
		r.err = errors.New("unexpected end")
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

// uint reads an unsigned LEB128 number.
func (r *reader) uint() int {
	var v, shift uint
	for r.err == nil {
		c := r.byte()
		v |= uint(c&0x7f) << shift
		if c < 0x80 {
			break
		}
		shift += 7
	}
	return int(v)
}

func (r *reader) name() string {
	n := r.uint()
	if r.err != nil || r.off+n > len(r.b) {
		r.err = errors.New("unexpected end in a name")
		return ""
	}
	s := string(r.b[r.off : r.off+n])
	r.off += n
	return s
}

func (r *reader) limits() {
	if r.byte()&1 == 1 {
		r.uint()
	}
	r.uint()
}
