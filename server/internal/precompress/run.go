package precompress

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"
)

// Options configure Run.
type Options struct {
	// Store is consulted before compressing and given every new output; nil uses none.
	Store *Store
	// Workers is how many compressions run at once; zero means one per CPU.
	Workers int
	// Warn is told what went wrong with the Store (a full disk, a folder not writable) or with
	// the Brotli command: the run goes on without them. Nil ignores.
	Warn func(error)
	// Brotli is the path of the brotli command, which compresses in about two thirds of the Go
	// encoder's time; "" compresses with the Go encoder only. The run uses the command only once it
	// wrote the Go encoder's bytes for the start of one of the files (see command.go), so the
	// outputs are the same with it or without it.
	Brotli string
}

// Result tells what Run did for one file.
type Result struct {
	// Path is the file's path as given.
	Path string
	// Size, BrotliSize and GzipSize are the sizes in bytes of the file and its outputs.
	Size, BrotliSize, GzipSize int
	// Settings are the outputs' settings.
	Settings Settings
	// How is "up to date" (the outputs on disk were already these), "from the cache" (both
	// came from the Store) or "compressed" (at least one was compressed now).
	How string
	// Elapsed is the wall time from the start of Run until the file's outputs were ready.
	Elapsed time.Duration
}

// file is one file's work in progress.
type file struct {
	path     string
	data     []byte
	sum      string
	settings Settings
	out      map[string][]byte // ".br", ".gz"
	made     map[string]bool   // the outputs compressed now, not taken from the store
	done     time.Time
	mu       sync.Mutex
}

// Run writes FILE.br and FILE.gz beside each file of paths, unless the manifest beside it says
// they are already the outputs of its content with today's settings; an output found in the
// Store is used instead of compressing again. Compressions run concurrently, the longest first.
func Run(paths []string, opt Options) ([]Result, error) {
	start := time.Now()
	manifests := map[string]*Manifest{}
	var files []*file
	var todo []job
	var results []Result
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", p, err)
		}
		dir := filepath.Dir(p)
		if manifests[dir] == nil {
			if manifests[dir], err = ReadManifest(dir); err != nil {
				return nil, err
			}
		}
		f := &file{path: p, data: data, sum: Sum(data), settings: For(len(data)), out: map[string][]byte{}, made: map[string]bool{}}
		if e, ok := manifests[dir].Files[filepath.Base(p)]; ok && e.Current(p, f.sum, f.settings) {
			results = append(results, Result{Path: p, Size: len(data), BrotliSize: e.BrotliSize, GzipSize: e.GzipSize,
				Settings: f.settings, How: "up to date", Elapsed: time.Since(start)})
			continue
		}
		files = append(files, f)
		for _, ext := range []string{".br", ".gz"} {
			if out, ok := opt.Store.Get(f.sum, f.settings, ext); ok && f.check(ext, out) == nil {
				f.out[ext] = out
				continue
			}
			todo = append(todo, job{f, ext})
		}
	}
	if opt.Brotli != "" {
		opt.Brotli = agreeingCommand(todo, opt)
	}
	if err := runJobs(todo, opt); err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := f.write(manifests[filepath.Dir(f.path)], opt); err != nil {
			return nil, err
		}
		how := "from the cache"
		if len(f.made) > 0 {
			how = "compressed"
		}
		results = append(results, Result{Path: f.path, Size: len(f.data), BrotliSize: len(f.out[".br"]), GzipSize: len(f.out[".gz"]),
			Settings: f.settings, How: how, Elapsed: cmp.Or(f.done, start).Sub(start)})
	}
	for dir, m := range manifests {
		if err := m.Write(dir); err != nil {
			return nil, err
		}
	}
	if err := opt.Store.Prune(); err != nil && opt.Warn != nil {
		opt.Warn(err)
	}
	slices.SortFunc(results, func(a, b Result) int { return cmp.Compare(slices.Index(paths, a.Path), slices.Index(paths, b.Path)) })
	return results, nil
}

// job is one output to compress.
type job struct {
	f   *file
	ext string
}

// runJobs compresses every job, opt.Workers at a time, brotli's of the largest files first
// (they take the longest: about a minute of CPU per 15 MB).
func runJobs(jobs []job, opt Options) error {
	slices.SortStableFunc(jobs, func(a, b job) int {
		if a.ext != b.ext {
			return cmp.Compare(a.ext, b.ext) // ".br" before ".gz"
		}
		return cmp.Compare(len(b.f.data), len(a.f.data))
	})
	workers := cmp.Or(opt.Workers, runtime.NumCPU())
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for _, j := range jobs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			out, err := j.compress(opt.Brotli)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				first = cmp.Or(first, fmt.Errorf("compressing %s: %w", j.f.path, err))
				return
			}
			j.f.mu.Lock()
			j.f.out[j.ext], j.f.made[j.ext], j.f.done = out, true, time.Now()
			j.f.mu.Unlock()
		})
	}
	wg.Wait()
	return first
}

// compress makes the job's output, with the brotli command when it is not "".
func (j job) compress(command string) ([]byte, error) {
	if j.ext == ".br" {
		return brotliWith(command, j.f)
	}
	return Gzip(j.f.data, j.f.settings)
}

// agreeingCommand returns opt.Brotli when it writes the Go encoder's bytes for the start of the
// smallest file the jobs compress with brotli, and "" (told to opt.Warn) when it does not; ""
// also when no job is brotli's, as there is nothing to use it for.
func agreeingCommand(jobs []job, opt Options) string {
	var probe []byte
	for _, j := range jobs {
		if j.ext == ".br" && (probe == nil || len(j.f.data) < len(probe)) {
			probe = j.f.data
		}
	}
	if probe == nil {
		return ""
	}
	if err := commandAgrees(opt.Brotli, probe[:min(len(probe), probeSize)]); err != nil {
		if opt.Warn != nil {
			opt.Warn(fmt.Errorf("compressing with the Go encoder only: %w", err))
		}
		return ""
	}
	return opt.Brotli
}

// check verifies an output taken from the store.
func (f *file) check(ext string, out []byte) error {
	if ext == ".br" {
		return CheckBrotli(f.data, out, f.settings)
	}
	return CheckGzip(f.data, out)
}

// write writes the file's outputs beside it, records them in m and gives new ones to the store.
func (f *file) write(m *Manifest, opt Options) error {
	for _, ext := range []string{".br", ".gz"} {
		if err := writeFile(f.path+ext, f.out[ext]); err != nil {
			return err
		}
		if !f.made[ext] {
			continue
		}
		if err := opt.Store.Put(f.sum, f.settings, ext, f.out[ext]); err != nil && opt.Warn != nil {
			opt.Warn(err)
		}
	}
	m.Files[filepath.Base(f.path)] = Entry{SHA256: f.sum, Settings: f.settings,
		BrotliSHA256: Sum(f.out[".br"]), GzipSHA256: Sum(f.out[".gz"]),
		Size: len(f.data), BrotliSize: len(f.out[".br"]), GzipSize: len(f.out[".gz"])}
	return nil
}
