package precompress

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestWindow(t *testing.T) {
	for _, tc := range []struct{ size, want int }{
		{0, 10},
		{1008, 10},
		{1009, 11},
		{65520, 16},
		{65521, 17},
		{15_172_457, 24},
		{68_190_780, 24},
	} {
		if got := Window(tc.size); got != tc.want {
			t.Errorf("Window(%d): got %d; want %d", tc.size, got, tc.want)
		}
	}
}

func TestStreamWindow(t *testing.T) {
	data := bytes.Repeat([]byte("loupe precompress "), 100)
	for lgwin := 10; lgwin <= 24; lgwin++ {
		br, err := Brotli(data, Settings{Quality: 5, LGWin: lgwin})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := StreamWindow(br); err != nil || got != lgwin {
			t.Errorf("lgwin %d: got %d, %v; want %d", lgwin, got, err, lgwin)
		}
	}
}

func TestCheckBrotli(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 4096)
	s := For(len(data))
	br, err := Brotli(data, s)
	if err != nil {
		t.Fatal(err)
	}
	other := append(bytes.Clone(data[:len(data)-1]), 'x')
	for _, tc := range []struct {
		name     string
		data, br []byte
		s        Settings
		ok       bool
	}{
		{"its own output", data, br, s, true},
		{"another file", other, br, s, false},
		{"another window", data, br, Settings{Quality: 11, LGWin: s.LGWin + 1, GzipLevel: 9}, false},
		{"a cut stream", data, br[:len(br)/2], s, false},
		{"no stream", data, nil, s, false},
	} {
		if err := CheckBrotli(tc.data, tc.br, tc.s); (err == nil) != tc.ok {
			t.Errorf("%s: got %v; want ok %v", tc.name, err, tc.ok)
		}
	}
}

// TestSameBytesAsTheBrotliCommand compresses real files of several sizes (so several windows)
// with the Go encoder at For's settings and with `brotli -q 11 FILE` given no window: the bytes are
// the same, so a machine with the command and one without ship the same files. `make deps`
// installs the command.
func TestSameBytesAsTheBrotliCommand(t *testing.T) {
	cmdPath, err := exec.LookPath("brotli")
	if err != nil {
		t.Fatalf("this test compares with the brotli command, which is missing: run `make deps` (%v)", err)
	}
	docs, err := filepath.Glob(filepath.Join("..", "..", "..", "content", "openapi", "*.yaml"))
	if err != nil || len(docs) < 2 {
		t.Fatalf("got %d documents, %v; want the content/openapi documents", len(docs), err)
	}
	var all []byte
	inputs := map[string][]byte{}
	for _, d := range docs[:2] {
		data, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(d)] = data
	}
	for _, d := range docs {
		data, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, data...)
	}
	inputs["every document"] = all
	inputs["a small file"] = all[:900]
	for name, data := range inputs {
		s := For(len(data))
		got, err := Brotli(data, s)
		if err != nil {
			t.Fatal(err)
		}
		// Given a file (not standard input), the command picks the window from its size.
		path := filepath.Join(t.TempDir(), "input")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		want, err := exec.Command(cmdPath, "-c", "-q", "11", path).Output()
		if err != nil {
			t.Fatalf("%s: brotli: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s (%d bytes, window %d): got %d bytes; want the command's %d, the same", name, len(data), s.LGWin, len(got), len(want))
		}
	}
}
