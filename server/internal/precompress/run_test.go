package precompress

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// writeInputs writes two files into a new folder and returns their paths.
func writeInputs(t *testing.T, a, b []byte) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "app.wasm"), filepath.Join(dir, "sandbox-chat.wasm")}
	for i, data := range [][]byte{a, b} {
		if err := os.WriteFile(paths[i], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, paths
}

func hows(rs []Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.How)
	}
	return out
}

func TestRun(t *testing.T) {
	a := bytes.Repeat([]byte("the app module "), 3000)
	b := bytes.Repeat([]byte("a sandbox module, larger "), 5000)
	store := &Store{Dir: t.TempDir()}
	dir, paths := writeInputs(t, a, b)
	opt := Options{Store: store, Warn: func(err error) { t.Errorf("store: %v", err) }}

	rs, err := Run(paths, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hows(rs), []string{"compressed", "compressed"}; !slices.Equal(got, want) {
		t.Errorf("first run: got %v; want %v", got, want)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range paths {
		data, _ := os.ReadFile(p)
		br, _ := os.ReadFile(p + ".br")
		gz, _ := os.ReadFile(p + ".gz")
		e := m.Files[filepath.Base(p)]
		if e.SHA256 != Sum(data) || e.BrotliSHA256 != Sum(br) || e.GzipSHA256 != Sum(gz) || e.Settings != For(len(data)) {
			t.Errorf("%s: got manifest entry %+v; want the file's hashes and For's settings", p, e)
		}
		if err := CheckBrotli(data, br, e.Settings); err != nil {
			t.Errorf("%s.br: %v", p, err)
		}
		if err := CheckGzip(data, gz); err != nil {
			t.Errorf("%s.gz: %v", p, err)
		}
		if rs[i].BrotliSize != len(br) || rs[i].GzipSize != len(gz) || rs[i].Size != len(data) {
			t.Errorf("%s: got result %+v; want the sizes written", p, rs[i])
		}
	}

	// Nothing changed: nothing is compressed or written.
	before, _ := os.Stat(paths[0] + ".br")
	time.Sleep(10 * time.Millisecond)
	if rs, err = Run(paths, opt); err != nil {
		t.Fatal(err)
	}
	if got, want := hows(rs), []string{"up to date", "up to date"}; !slices.Equal(got, want) {
		t.Errorf("second run: got %v; want %v", got, want)
	}
	if after, _ := os.Stat(paths[0] + ".br"); !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("an up-to-date .br was written again")
	}

	// One file changed: only it is compressed.
	if err := os.WriteFile(paths[0], append(a, "changed"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if rs, err = Run(paths, opt); err != nil {
		t.Fatal(err)
	}
	if got, want := hows(rs), []string{"compressed", "up to date"}; !slices.Equal(got, want) {
		t.Errorf("after a change: got %v; want %v", got, want)
	}

	// A damaged output on disk is not taken for current: it is replaced from the store.
	if err := os.WriteFile(paths[1]+".br", []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if rs, err = Run(paths, opt); err != nil {
		t.Fatal(err)
	}
	if got, want := hows(rs), []string{"up to date", "from the cache"}; !slices.Equal(got, want) {
		t.Errorf("after damage: got %v; want %v", got, want)
	}
	if br, _ := os.ReadFile(paths[1] + ".br"); CheckBrotli(b, br, For(len(b))) != nil {
		t.Errorf("the damaged .br was not replaced by a good one")
	}

	// Another checkout with the same files takes them from the store, the same bytes.
	_, others := writeInputs(t, a, b)
	if rs, err = Run(others, opt); err != nil {
		t.Fatal(err)
	}
	if got, want := hows(rs), []string{"from the cache", "from the cache"}; !slices.Equal(got, want) {
		t.Errorf("another checkout: got %v; want %v", got, want)
	}
	mine, _ := os.ReadFile(paths[1] + ".br")
	theirs, _ := os.ReadFile(others[1] + ".br")
	if !bytes.Equal(mine, theirs) {
		t.Errorf("the store's .br differs from the one compressed")
	}
}

// TestRunDamagedStore: an entry of the store that does not decompress to the file is not
// used; the file is compressed again.
func TestRunDamagedStore(t *testing.T) {
	a := bytes.Repeat([]byte("module "), 2000)
	store := &Store{Dir: t.TempDir()}
	s := For(len(a))
	if err := store.Put(Sum(a), s, ".br", []byte("not brotli")); err != nil {
		t.Fatal(err)
	}
	_, paths := writeInputs(t, a, []byte("x"))
	rs, err := Run(paths[:1], Options{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].How != "compressed" {
		t.Errorf("got %q; want compressed", rs[0].How)
	}
	br, _ := os.ReadFile(paths[0] + ".br")
	if err := CheckBrotli(a, br, s); err != nil {
		t.Errorf("got a .br that fails its check: %v", err)
	}
}

func TestStorePrune(t *testing.T) {
	st := &Store{Dir: t.TempDir(), MaxAge: time.Hour}
	s := For(10)
	for _, sum := range []string{"old", "new"} {
		if err := st.Put(sum, s, ".br", []byte(sum)); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(st.key("old", s, ".br"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := st.Prune(); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.Get("old", s, ".br"); ok {
		t.Errorf("an entry unused for 2 hours survived a 1-hour prune")
	}
	if got, ok := st.Get("new", s, ".br"); !ok || string(got) != "new" {
		t.Errorf("got %q, %v; want the new entry kept", got, ok)
	}
}
