package precompress

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"loupe/content"
)

// TestShippedOutputsAreTheEncoders checks the .br and .gz of the wasm modules that `make wasm`
// wrote (app.wasm and every module of the static explorer) into web/ (and that the binary embeds and serves): each decompresses to its module,
// declares the window today's settings give, and the manifest records that the module's
// current bytes were compressed with today's settings (quality 11). Recompressing would take
// minutes of CPU; decompressing takes a second. CI builds the wasm before the tests run.
func TestShippedOutputsAreTheEncoders(t *testing.T) {
	web := filepath.Join("..", "..", "..", "web")
	if _, err := os.Stat(filepath.Join(web, "app.wasm")); errors.Is(err, fs.ErrNotExist) {
		t.Skip("web/app.wasm is not built: run `make wasm` (`make test` does)")
	}
	m, err := ReadManifest(web)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"app.wasm", "own.wasm", "walkthroughs.wasm"}
	for _, slug := range content.Slugs() {
		names = append(names, "sandbox-"+slug+".wasm")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(web, name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v: run `make wasm`", err)
			}
			br, err := os.ReadFile(path + ".br")
			if err != nil {
				t.Fatalf("%v: run `make wasm`", err)
			}
			gz, err := os.ReadFile(path + ".gz")
			if err != nil {
				t.Fatalf("%v: run `make wasm`", err)
			}
			e, ok := m.Files[name]
			if !ok {
				t.Fatalf("web/%s is not in web/%s: its outputs were not made by precompress; run `make wasm`", name, ManifestName)
			}
			want := For(len(data))
			if e.Settings != want {
				t.Errorf("web/%s.br was made with %s; want today's %s: run `make wasm`", name, e.Settings, want)
			}
			if e.SHA256 != Sum(data) {
				t.Errorf("web/%s changed since its outputs were made: run `make wasm`", name)
			}
			if e.BrotliSHA256 != Sum(br) || e.GzipSHA256 != Sum(gz) {
				t.Errorf("web/%s.br or .gz is not the file precompress wrote: run `make wasm`", name)
			}
			if err := CheckBrotli(data, br, want); err != nil {
				t.Errorf("web/%s.br: %v", name, err)
			}
			if err := CheckGzip(data, gz); err != nil {
				t.Errorf("web/%s.gz: %v", name, err)
			}
		})
	}
}
