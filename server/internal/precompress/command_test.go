package precompress

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// realInputs returns two real files of the project (content/openapi documents), large enough
// for the encoder's block splitting, written into a new folder.
func realInputs(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("..", "..", "..", "content", "openapi", "*.yaml"))
	if err != nil || len(docs) < 2 {
		t.Fatalf("got %d documents, %v; want the content/openapi documents", len(docs), err)
	}
	var data [2][]byte
	for i := range data {
		if data[i], err = os.ReadFile(docs[i]); err != nil {
			t.Fatal(err)
		}
	}
	_, paths := writeInputs(t, data[0], data[1])
	return paths
}

// TestRunWithTheBrotliCommand: a run with the brotli command writes the bytes a run with the Go
// encoder only writes, and warns of nothing.
func TestRunWithTheBrotliCommand(t *testing.T) {
	cmdPath, err := exec.LookPath("brotli")
	if err != nil {
		t.Fatalf("this test runs the brotli command, which is missing: run `make deps` (%v)", err)
	}
	// The command through a script that counts its calls, to know the run used it.
	dir := t.TempDir()
	calls, counted := filepath.Join(dir, "calls"), filepath.Join(dir, "brotli")
	script := "#!/bin/sh\necho >> " + calls + "\nexec " + cmdPath + " \"$@\"\n"
	if err := os.WriteFile(counted, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	paths := realInputs(t)
	var outputs [2][][]byte
	for i, command := range []string{"", counted} {
		rs, err := Run(paths, Options{Brotli: command, Warn: func(err error) { t.Errorf("with %q: %v", command, err) }})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.How != "compressed" {
				t.Errorf("with %q, %s: got %q; want compressed", command, r.Path, r.How)
			}
			br, _ := os.ReadFile(r.Path + ".br")
			outputs[i] = append(outputs[i], br)
			os.Remove(filepath.Join(filepath.Dir(r.Path), ManifestName))
		}
	}
	if got, _ := os.ReadFile(calls); len(got) != 1+len(paths) {
		t.Errorf("the command was called %d times; want %d (the probe, then each file)", len(got), 1+len(paths))
	}
	for i := range paths {
		if !bytes.Equal(outputs[0][i], outputs[1][i]) {
			t.Errorf("%s: got %d bytes with the command; want the Go encoder's %d, the same", paths[i], len(outputs[1][i]), len(outputs[0][i]))
		}
	}
}

// TestRunRefusesACommandWithOtherBytes: a brotli command whose bytes are not the Go encoder's
// (here one that writes quality 5) is not used: the run says so and writes the Go encoder's
// bytes.
func TestRunRefusesACommandWithOtherBytes(t *testing.T) {
	cmdPath, err := exec.LookPath("brotli")
	if err != nil {
		t.Fatalf("this test runs the brotli command, which is missing: run `make deps` (%v)", err)
	}
	other := filepath.Join(t.TempDir(), "brotli-q5")
	script := "#!/bin/sh\n# called as: -c -q 11 -w WINDOW FILE\nexec " + cmdPath + " -c -q 5 -w \"$5\" \"$6\"\n"
	if err := os.WriteFile(other, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	paths := realInputs(t)
	var warned []string
	rs, err := Run(paths, Options{Brotli: other, Warn: func(err error) { warned = append(warned, err.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "writes other bytes than the Go encoder") {
		t.Errorf("got warnings %q; want one saying the command writes other bytes", warned)
	}
	for _, r := range rs {
		data, _ := os.ReadFile(r.Path)
		got, _ := os.ReadFile(r.Path + ".br")
		want, err := Brotli(data, For(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: got %d bytes; want the Go encoder's %d", r.Path, len(got), len(want))
		}
	}
}
