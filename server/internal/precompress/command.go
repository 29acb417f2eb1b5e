package precompress

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// The brotli command, where it is installed, compresses faster than the Go encoder (2 MB of
// app.wasm: 4.8 s beside 9.0 s; a run of app.wasm and the chat module, gzip and the probe
// included: 57 s beside 86 s) and writes the same bytes: the Go encoder is a translation of its
// code (TestSameBytesAsTheBrotliCommand). A run compresses with it only
// after it wrote the Go encoder's bytes for a probe in that run, so a command of another
// version, whose bytes could differ, is never used; and each output it writes is checked to
// decompress to its file before it is kept.

// probeSize is how much of a file the probe compresses both ways: enough for the encoder's
// block splitting and its large-window paths, about a second of the Go encoder.
const probeSize = 256 << 10

// commandBrotli compresses the file at path with the brotli command at s's settings.
func commandBrotli(command, path string, s Settings) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := exec.Command(command, "-c", "-q", strconv.Itoa(s.Quality), "-w", strconv.Itoa(s.LGWin), path)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", command, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// commandAgrees reports whether the brotli command writes the Go encoder's bytes for probe (the
// start of a file to compress), compressed at the settings of its size; the error says why not.
func commandAgrees(command string, probe []byte) error {
	dir, err := os.MkdirTemp("", "precompress-probe-")
	if err != nil {
		return fmt.Errorf("probing the brotli command: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "probe")
	if err := os.WriteFile(path, probe, 0o600); err != nil {
		return fmt.Errorf("probing the brotli command: %w", err)
	}
	s := For(len(probe))
	got, err := commandBrotli(command, path, s)
	if err != nil {
		return err
	}
	want, err := Brotli(probe, s)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s writes other bytes than the Go encoder (%d beside %d for a %d-byte probe at %s)",
			command, len(got), len(want), len(probe), s)
	}
	return nil
}

// brotliWith compresses f with the brotli command when command is not "", checking that the
// output decompresses to f's content (the file could have changed on disk since it was read),
// and with the Go encoder otherwise or when the command fails.
func brotliWith(command string, f *file) ([]byte, error) {
	if command != "" {
		out, err := commandBrotli(command, f.path, f.settings)
		if err == nil && CheckBrotli(f.data, out, f.settings) == nil {
			return out, nil
		}
	}
	return Brotli(f.data, f.settings)
}
