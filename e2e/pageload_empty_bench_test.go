package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzhttp"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The page-load benchmark's third page is the floor that go-app v10.1.11 sets: the empty go-app
// app of server/internal/wasmsize/testdata/emptyapp (one route, an H1), the app that
// BenchmarkAppWasmBesideEmptyApp builds, built as `make wasm` builds Loupe's app.wasm (the same
// flags, compressed by the same precompress command with the machine's cache) and served as
// go-app serves an app: go-app's app.Handler, its own app.js and service worker, with app.wasm
// sent as its precompressed brotli or gzip, the bytes of the encoder Loupe's own app.wasm is
// sent with. It runs in a process of its own (go-app's routes are the process's, and this
// process prerenders Loupe's), so it has an origin of its own and its service worker does not
// mix with Loupe's.

// emptyAppChild is the environment variable that makes TestEmptyAppServerChild serve the empty
// app from a folder: the benchmark runs this test binary again with it.
const emptyAppChild = "LOUPE_EMPTY_APP_DIR"

// emptyAppMounted is the empty app's usable check (see usableRecorder): go-app removed its
// loader, which it does once the wasm's main runs, and the app's H1 is in the document.
const emptyAppMounted = `() => document.getElementById("app-wasm-loader") === null &&
	[...document.getElementsByTagName("h1")].some(h => h.textContent === "Hello")`

// TestEmptyAppServerChild is the child of BenchmarkPageLoadBesideSwaggerUI that serves the empty
// go-app app: with LOUPE_EMPTY_APP_DIR set it serves that folder's web/app.wasm (see
// emptyAppHandler) on a server of its own, prints "SERVING <URL>" and serves until its standard
// input is closed. Without it, there is nothing to do.
func TestEmptyAppServerChild(t *testing.T) {
	dir := os.Getenv(emptyAppChild)
	if dir == "" {
		return // a process entry point of the benchmark, not a test of its own
	}
	app.Route("/", func() app.Composer { return &emptyHello{} })
	ts := httptest.NewServer(emptyAppHandler(dir))
	defer ts.Close()
	fmt.Println("SERVING " + ts.URL)
	_, _ = io.Copy(io.Discard, os.Stdin) // until the benchmark closes it or ends
}

// emptyHello is the empty app's component (testdata/emptyapp's hello), which the server
// prerenders as go-app does before the wasm runs.
type emptyHello struct{ app.Compo }

// Render shows a heading.
func (h *emptyHello) Render() app.UI { return app.H1().Text("Hello") }

// emptyAppHandler serves the empty app in dir: go-app's app.Handler with its files in dir/web,
// app.wasm as its precompressed dir/web/app.wasm.br or .gz (precompressedWasm), the rest gzipped
// as Loupe's server gzips go-app's pages and scripts (gzhttp, which leaves a response with a
// Content-Encoding alone, so the wasm is not compressed twice). The icons are local files:
// go-app's default icons are on GitHub, and its service worker caches nothing when one of its
// files cannot be fetched.
func emptyAppHandler(dir string) http.Handler {
	return gzhttp.GzipHandler(precompressedWasm(&app.Handler{
		Name:      "Hello",
		Icon:      app.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", SVG: "/web/icon.svg"},
		Resources: webDir{http.FileServer(http.Dir(dir))},
	}))
}

// webDir is app.LocalDir("") with its files in another folder: app.LocalDir(dir) serves dir's
// files but names them by their path on disk (dir/web/app.wasm), which is a URL only for a
// folder relative to the working directory.
type webDir struct{ http.Handler }

// Resolve names a file /web/… as app.LocalDir("") does.
func (webDir) Resolve(location string) string { return app.LocalDir("").Resolve(location) }

// precompressedWasm serves go-app's requests of app.wasm (/web/app.wasm, and its /app.wasm and
// /goapp.wasm aliases) from the precompressed file of the encoding the request accepts, with
// go-app's headers, as Loupe's server sends its own (Content-Encoding, application/wasm, Vary).
func precompressedWasm(goApp http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/web/app.wasm", "/app.wasm", "/goapp.wasm":
		default:
			goApp.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		// Set before the file server, which would otherwise type a .br file by its name.
		h.Set("Content-Type", "application/wasm")
		if !slices.Contains(h.Values("Vary"), "Accept-Encoding") { // gzhttp adds it
			h.Add("Vary", "Accept-Encoding")
		}
		file := "/web/app.wasm"
		switch accepted := r.Header.Get("Accept-Encoding"); {
		case strings.Contains(accepted, "br"):
			file += ".br"
			h.Set("Content-Encoding", "br")
		case strings.Contains(accepted, "gzip"):
			file += ".gz"
			h.Set("Content-Encoding", "gzip")
		}
		r2 := r.Clone(r.Context())
		r2.URL.Path = file // go-app's handler gives /web/… to its file server
		goApp.ServeHTTP(w, r2)
	})
}

// startEmptyApp builds the empty app into a folder of the benchmark's, starts
// TestEmptyAppServerChild on it and returns the address of its page.
func startEmptyApp(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	web := filepath.Join(dir, "web")
	if err := os.Mkdir(web, 0o755); err != nil {
		b.Fatal(err)
	}
	wasm := filepath.Join(web, "app.wasm")
	for _, step := range []struct {
		what string
		args []string
		env  []string
	}{
		{"building the empty go-app app", []string{"build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./server/internal/wasmsize/testdata/emptyapp"}, []string{"GOOS=js", "GOARCH=wasm"}},
		{"compressing the empty go-app app", []string{"run", "./server/cmd/precompress", wasm}, nil},
	} {
		cmd := exec.Command("go", step.args...)
		cmd.Dir = ".." // the module's root
		cmd.Env = append(os.Environ(), step.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", step.what, err, out)
		}
	}
	for _, icon := range []string{"icon-192.png", "icon-512.png", "icon.svg"} {
		data, err := os.ReadFile(filepath.Join("..", "web", icon))
		if err == nil {
			err = os.WriteFile(filepath.Join(web, icon), data, 0o644)
		}
		if err != nil {
			b.Fatalf("copying Loupe's icon for the empty app: %v", err)
		}
	}
	return startEmptyAppServer(b, dir)
}

// startEmptyAppServer runs TestEmptyAppServerChild on dir until the benchmark ends and returns
// the address it serves.
func startEmptyAppServer(b *testing.B, dir string) string {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestEmptyAppServerChild$", "-test.timeout", "0")
	cmd.Env = append(os.Environ(), emptyAppChild+"="+dir)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatalf("starting the empty app's server: %v", err)
	}
	b.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	served := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			if u, ok := strings.CutPrefix(s.Text(), "SERVING "); ok {
				select {
				case served <- u:
				default:
				}
			}
		}
		close(served)
		_, _ = io.Copy(io.Discard, stdout) // so that the server never blocks on a full pipe
	}()
	select {
	case u, ok := <-served:
		if !ok {
			b.Fatal("the empty app's server ended without serving")
		}
		return u + "/"
	case <-time.After(60 * time.Second):
		b.Fatal("the empty app's server did not start within 60 s")
	}
	return ""
}
