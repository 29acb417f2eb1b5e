// Command precompress writes FILE.br (brotli, quality 11) and FILE.gz (gzip -9) beside each FILE
// given, for server/site to serve by Accept-Encoding. It uses the same pure-Go encoders on every
// machine, so the bytes do not depend on whether the brotli command is installed (they are the
// command's `brotli -q 11` bytes). A file whose outputs are already those of its content is
// skipped, outputs are taken from the machine's cache when another checkout made them, and the
// files are compressed concurrently (see server/internal/precompress).
//
// LOUPE_PRECOMPRESS_CACHE names the cache folder (default: the user's cache folder), or "off".
package main

import (
	"fmt"
	"os"

	"loupe/server/internal/precompress"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...")
		os.Exit(2)
	}
	results, err := precompress.Run(os.Args[1:], precompress.Options{
		Store: precompress.DefaultStore(),
		Warn:  func(err error) { fmt.Fprintln(os.Stderr, "precompress: the cache is not used:", err) },
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
