// Command precompress writes FILE.br (brotli, quality 11) and FILE.gz (gzip -9) beside each FILE
// given, for server/site to serve by Accept-Encoding. The bytes do not depend on whether the
// brotli command is installed: they are the pure-Go encoder's, which are the command's `brotli
// -q 11` bytes; the command, which is faster, is used only once it wrote the Go encoder's bytes
// for a probe. A file whose outputs are already those of its content is
// skipped, outputs are taken from the machine's cache when another checkout made them, and the
// files are compressed concurrently (see server/internal/precompress).
//
// LOUPE_PRECOMPRESS_CACHE names the cache folder (default: the user's cache folder), or "off";
// LOUPE_PRECOMPRESS_BROTLI names the brotli command (default: brotli on PATH), or "off" for the
// Go encoder only.
package main

import (
	"fmt"
	"os"
	"os/exec"

	"loupe/server/internal/precompress"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...")
		os.Exit(2)
	}
	results, err := precompress.Run(os.Args[1:], precompress.Options{
		Store:  precompress.DefaultStore(),
		Warn:   func(err error) { fmt.Fprintln(os.Stderr, "precompress:", err) },
		Brotli: brotliCommand(),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "precompress:", err)
		os.Exit(1)
	}
	for _, r := range results {
		fmt.Printf("%s: %d raw, %d gzip, %d brotli bytes (%s, %s) after %.1f s\n",
			r.Path, r.Size, r.GzipSize, r.BrotliSize, r.Settings, r.How, r.Elapsed.Seconds())
	}
}

// brotliCommand is the brotli command to compress with: LOUPE_PRECOMPRESS_BROTLI, or brotli on
// PATH; "" when it is "off" or there is none.
func brotliCommand() string {
	name := os.Getenv("LOUPE_PRECOMPRESS_BROTLI")
	switch name {
	case "off":
		return ""
	case "":
		name = "brotli"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return path
}
