// Package precompress makes the .br and .gz files that server/site serves beside each build
// output of web/ (app.wasm, the static explorer's modules), with the same bytes on a machine with
// the brotli command and one without: brotli is github.com/andybalholm/brotli at quality 11 with
// the window the brotli command picks (the output is byte for byte the command's `brotli -q
// 11`), gzip is compress/gzip at level 9. Where the command is installed it compresses instead,
// in two thirds of the time, once it wrote the Go encoder's bytes for a probe (command.go).
//
// Brotli at quality 11 is slow (about a minute of CPU for app.wasm), so a file is compressed
// only when its content or the settings changed: a manifest beside the files (Manifest) records
// what each output was made from, and a store shared by every checkout of the machine (Store)
// keeps outputs by content hash and settings.
package precompress

import (
	"bytes"
	"compress/gzip"
	"fmt"

	"github.com/andybalholm/brotli"
)

// Settings are the encoder settings of one file's outputs. Two runs with the same input and
// the same Settings give the same bytes.
type Settings struct {
	// Quality is brotli's quality, 0 to 11.
	Quality int `json:"brotli_quality"`
	// LGWin is brotli's window as a base 2 logarithm, 10 to 24.
	LGWin int `json:"brotli_lgwin"`
	// GzipLevel is compress/gzip's level, 1 to 9.
	GzipLevel int `json:"gzip_level"`
}

// String names the settings in a cache key and a message, such as "br-q11-w24 gz-9".
func (s Settings) String() string {
	return fmt.Sprintf("br-q%d-w%d gz-%d", s.Quality, s.LGWin, s.GzipLevel)
}

// Quality is the brotli quality of every file: the best, as `brotli -q 11` (the command's
// default) compresses. Quality 9, which takes a tenth of the time, made app.wasm 15% larger.
const Quality = 11

// For returns the settings of a file of size bytes: quality 11, gzip 9, and the window the brotli
// command picks when none is given, the smallest that holds the whole file (at most 24, brotli's
// largest for browsers). A larger window would give no smaller output, only other bytes.
func For(size int) Settings {
	return Settings{Quality: Quality, LGWin: Window(size), GzipLevel: gzip.BestCompression}
}

// Window returns the smallest brotli window (base 2 logarithm, 10 to 24) whose reach,
// 2^lgwin - 16 bytes, covers size bytes; 24 for anything larger.
func Window(size int) int {
	for lgwin := 10; lgwin < 24; lgwin++ {
		if (1<<lgwin)-16 >= size {
			return lgwin
		}
	}
	return 24
}

// Brotli compresses data with s's brotli settings.
func Brotli(data []byte, s Settings) ([]byte, error) {
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: s.Quality, LGWin: s.LGWin})
	if _, err := w.Write(data); err != nil {
		return nil, fmt.Errorf("brotli: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("brotli: %w", err)
	}
	return buf.Bytes(), nil
}

// Gzip compresses data at s's gzip level. The header holds no name and no time, so the bytes
// depend on data and the level only.
func Gzip(data []byte, s Settings) ([]byte, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, s.GzipLevel)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return buf.Bytes(), nil
}
