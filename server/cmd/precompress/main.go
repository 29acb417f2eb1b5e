// Command precompress writes FILE.gz (gzip -9) and FILE.br (brotli) beside each FILE given, for
// server/site to serve by Accept-Encoding. It uses the brotli command at quality 11 when it is
// installed (a few seconds) and the pure-Go encoder at quality 9 otherwise (no install needed).
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"

	"github.com/andybalholm/brotli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := compress(name); err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
	}
}

func compress(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("reading %s: %w", name, err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		return fmt.Errorf("gzip %s: %w", name, err)
	}
	if err := os.WriteFile(name+".gz", gz.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing %s.gz: %w", name, err)
	}
	if path, err := exec.LookPath("brotli"); err == nil {
		cmd := exec.Command(path, "-f", "-q", "11", "-o", name+".br", name)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("brotli %s: %w", name, err)
		}
	} else {
		var br bytes.Buffer
		bw := brotli.NewWriterLevel(&br, 9)
		bw.Write(data)
		if err := bw.Close(); err != nil {
			return fmt.Errorf("brotli %s: %w", name, err)
		}
		if err := os.WriteFile(name+".br", br.Bytes(), 0o644); err != nil {
			return fmt.Errorf("writing %s.br: %w", name, err)
		}
	}
	st, _ := os.Stat(name + ".br")
	fmt.Printf("%s: %d raw, %d gzip, %d brotli bytes\n", name, len(data), gz.Len(), st.Size())
	return nil
}
