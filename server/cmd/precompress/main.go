// Command precompress writes FILE.gz (gzip -9) and FILE.br (brotli) beside each FILE given, for
// server/site to serve by Accept-Encoding. It uses the brotli command at quality 11 when it is
// installed (a few minutes for the sandbox module) and the pure-Go encoder at quality 9
// otherwise (no install needed). The encodings of every file run at once, one per core, the
// slowest first: the sandbox module's brotli sets the time.
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"sync"

	"github.com/andybalholm/brotli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...")
		os.Exit(2)
	}
	sizes, err := compressAll(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "precompress:", err)
		os.Exit(1)
	}
	for _, s := range sizes {
		fmt.Printf("%s: %d raw, %d gzip, %d brotli bytes\n", s.name, s.raw, s.gzip, s.brotli)
	}
}

// sizes are one file's sizes: raw and as each encoding wrote it.
type sizes struct {
	name              string
	raw, gzip, brotli int64
}

// job is one encoding of one file.
type job struct {
	file   int    // its index in the names given
	name   string // the file's path
	brotli bool   // brotli, or else gzip
	weight int64  // how long it takes, roughly: brotli at quality 11 is far slower than gzip
}

// compressAll writes both encodings of every file, runtime.NumCPU() at a time, and returns the
// sizes in the order of names.
func compressAll(names []string) ([]sizes, error) {
	out := make([]sizes, len(names))
	var jobs []job
	for i, name := range names {
		st, err := os.Stat(name)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		out[i] = sizes{name: name, raw: st.Size()}
		jobs = append(jobs, job{i, name, true, 10 * st.Size()}, job{i, name, false, st.Size()})
	}
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].weight > jobs[b].weight })
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		next = make(chan job)
	)
	for range min(runtime.NumCPU(), len(jobs)) {
		wg.Go(func() {
			for j := range next {
				write, size := writeGzip, &out[j.file].gzip
				if j.brotli {
					write, size = writeBrotli, &out[j.file].brotli
				}
				n, err := write(j.name)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				}
				*size = n
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return out, nil
}

// writeGzip writes name.gz at gzip's best compression and returns its size.
func writeGzip(name string) (int64, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return 0, fmt.Errorf("reading %s: %w", name, err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		return 0, fmt.Errorf("gzip %s: %w", name, err)
	}
	if err := os.WriteFile(name+".gz", gz.Bytes(), 0o644); err != nil {
		return 0, fmt.Errorf("writing %s.gz: %w", name, err)
	}
	return int64(gz.Len()), nil
}

// writeBrotli writes name.br, with the brotli command at quality 11 when it is installed and
// the pure-Go encoder at quality 9 otherwise, and returns its size.
func writeBrotli(name string) (int64, error) {
	if path, err := exec.LookPath("brotli"); err == nil {
		cmd := exec.Command(path, "-f", "-q", "11", "-o", name+".br", name)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("brotli %s: %w", name, err)
		}
	} else {
		data, err := os.ReadFile(name)
		if err != nil {
			return 0, fmt.Errorf("reading %s: %w", name, err)
		}
		var br bytes.Buffer
		bw := brotli.NewWriterLevel(&br, 9)
		bw.Write(data)
		if err := bw.Close(); err != nil {
			return 0, fmt.Errorf("brotli %s: %w", name, err)
		}
		if err := os.WriteFile(name+".br", br.Bytes(), 0o644); err != nil {
			return 0, fmt.Errorf("writing %s.br: %w", name, err)
		}
	}
	st, err := os.Stat(name + ".br")
	if err != nil {
		return 0, fmt.Errorf("reading %s.br: %w", name, err)
	}
	return st.Size(), nil
}
