package precompress

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/andybalholm/brotli"
)

// StreamWindow reads the window (base 2 logarithm) a brotli stream declares in its first bits
// (RFC 7932, section 9.1).
func StreamWindow(br []byte) (int, error) {
	if len(br) == 0 {
		return 0, errors.New("an empty brotli stream")
	}
	bits := uint(br[0])
	if len(br) > 1 {
		bits |= uint(br[1]) << 8
	}
	if bits&1 == 0 {
		return 16, nil
	}
	if n := (bits >> 1) & 7; n != 0 {
		return 17 + int(n), nil
	}
	switch m := (bits >> 4) & 7; m {
	case 0:
		return 17, nil
	case 1:
		return 0, errors.New("a large-window brotli stream, which browsers do not read")
	default:
		return 8 + int(m), nil
	}
}

// CheckBrotli reports whether br is data compressed with s: it must decompress to data and
// declare s's window. (The quality leaves no trace in the stream; the manifest records it.)
func CheckBrotli(data, br []byte, s Settings) error {
	w, err := StreamWindow(br)
	if err != nil {
		return err
	}
	if w != s.LGWin {
		return fmt.Errorf("the brotli stream's window is %d; the settings' is %d", w, s.LGWin)
	}
	got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
	if err != nil {
		return fmt.Errorf("decompressing the brotli stream: %w", err)
	}
	if !bytes.Equal(got, data) {
		return fmt.Errorf("the brotli stream decompresses to %d other bytes, not the %d of the file", len(got), len(data))
	}
	return nil
}

// CheckGzip reports whether gz decompresses to data.
func CheckGzip(data, gz []byte) error {
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return fmt.Errorf("reading the gzip stream: %w", err)
	}
	got, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("decompressing the gzip stream: %w", err)
	}
	if !bytes.Equal(got, data) {
		return fmt.Errorf("the gzip stream decompresses to %d other bytes, not the %d of the file", len(got), len(data))
	}
	return nil
}
