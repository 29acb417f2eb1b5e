// Package worker runs script jobs (package engine) in worker processes with OS limits, so that
// no code can break a run's limits: a built-in the engine cannot interrupt (a catastrophic
// regular expression, a string of a gigabyte, a huge array) is stopped by the process's
// limits or killed, and takes nothing from the server or from other users' runs.
//
// A worker is the server's own binary started again (entry.go) with RLIMIT_DATA (the run's
// memory), RLIMIT_CPU (its time), a Go memory limit and one processor; it runs one job at a
// time and serves many. The server side (Pool) holds a few warm workers, sends a job over the
// worker's stdin, answers its requests for the user's state, reads its log lines as they come
// (capped), and kills it (SIGKILL) past the time limit plus a grace, when the caller goes away,
// or when it sends more than it may; a killed or crashed worker is replaced. A run still going
// after SlowAfter is deprioritised (nice 10), so that long runs cannot slow others' short ones.
package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"loupe/server/sandbox/script/engine"
)

// Config configures a Pool. The zero value gives the defaults below.
type Config struct {
	// Memory is each run's memory limit in bytes: the Go memory limit of its worker, whose
	// RLIMIT_DATA is this plus the address space of its threads, with the engine's check of
	// the live heap at three quarters of it. Default 256 MiB.
	Memory uint64
	// Warm is how many idle workers are kept ready. Default 2.
	Warm int
	// Grace is how long past its time limit a run has to answer before its worker is killed.
	// Default 300 ms.
	Grace time.Duration
	// SlowAfter is how long a run goes on before its worker is deprioritised (nice 10).
	// Default 100 ms; negative: never.
	SlowAfter time.Duration
	// Command is the worker's program and arguments. Default: this binary (os.Executable).
	Command []string
	// Logger receives a line when a worker stops unexpectedly. Nil means slog.Default().
	Logger *slog.Logger
}

// Defaults of Config.
const (
	DefaultMemory    = 256 << 20
	defaultWarm      = 2
	defaultGrace     = 300 * time.Millisecond
	defaultSlowAfter = 100 * time.Millisecond
)

// Pool runs jobs in worker processes. It is safe for concurrent use: each Run has a worker of
// its own.
type Pool struct {
	cfg    Config
	mu     sync.Mutex
	idle   []*proc
	all    map[*proc]bool
	closed bool
}

// NewPool returns a pool with cfg; it starts workers as runs need them.
func NewPool(cfg Config) *Pool {
	if cfg.Memory == 0 {
		cfg.Memory = DefaultMemory
	}
	if cfg.Warm <= 0 {
		cfg.Warm = defaultWarm
	}
	if cfg.Grace <= 0 {
		cfg.Grace = defaultGrace
	}
	if cfg.SlowAfter == 0 {
		cfg.SlowAfter = defaultSlowAfter
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Pool{cfg: cfg, all: map[*proc]bool{}}
}

var (
	sharedMu sync.Mutex
	shared   = map[uint64]*Pool{}
)

// Shared returns the process's pool of workers with the memory limit (0: DefaultMemory), made
// on first use: every sandbox handler of the process shares it. It keeps at least warm idle
// workers (the runs that may go on at once, so that a new run finds one ready).
func Shared(memory uint64, warm int) *Pool {
	if memory == 0 {
		memory = DefaultMemory
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	p := shared[memory]
	if p == nil {
		p = NewPool(Config{Memory: memory, Warm: warm})
		shared[memory] = p
	}
	p.mu.Lock()
	p.cfg.Warm = max(p.cfg.Warm, warm)
	p.mu.Unlock()
	return p
}

// Memory is each run's memory limit in bytes.
func (p *Pool) Memory() uint64 { return p.cfg.Memory }

// Run runs job in a worker, with host answering its requests for the user's state. It never
// fails: a worker that cannot start, crashes or passes a limit is the run's Failure.
func (p *Pool) Run(ctx context.Context, job engine.Job, host engine.Host) engine.Result {
	if job.Limits.Memory == 0 {
		job.Limits.Memory = p.cfg.Memory / 4 * 3
	}
	for attempt := 0; ; attempt++ {
		w, err := p.get()
		if err != nil {
			return engine.Result{Fail: &engine.Failure{Type: "Error", Message: "The sandbox could not start a script worker: " + err.Error()}}
		}
		res, healthy, sent := w.run(ctx, job, host, p.cfg)
		if healthy {
			p.put(w)
		} else {
			p.drop(w)
		}
		if sent || attempt > 0 {
			return res
		}
		// The worker died before it took the job (it was idle): try once more with another.
	}
}

// get returns an idle worker or starts one.
func (p *Pool) get() (*proc, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("the pool is closed")
	}
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return w, nil
	}
	p.mu.Unlock()
	return p.start()
}

// start starts a worker.
func (p *Pool) start() (*proc, error) {
	cmd := p.cfg.Command
	if len(cmd) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("finding this program to start a worker: %w", err)
		}
		cmd = []string{exe}
	}
	w, err := startProc(cmd, p.cfg.Memory)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.all[w] = true
	closed := p.closed
	p.mu.Unlock()
	if closed {
		p.drop(w)
		return nil, errors.New("the pool is closed")
	}
	return w, nil
}

// put keeps w idle, or stops it when enough are.
func (p *Pool) put(w *proc) {
	p.mu.Lock()
	if !p.closed && len(p.idle) < p.cfg.Warm {
		p.idle = append(p.idle, w)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	p.drop(w)
}

// drop kills w and forgets it; the pool starts a replacement in the background when it has
// fewer idle workers than it keeps warm.
func (p *Pool) drop(w *proc) {
	w.kill()
	p.mu.Lock()
	delete(p.all, w)
	refill := !p.closed && len(p.idle) < p.cfg.Warm
	p.mu.Unlock()
	if refill {
		go p.Prewarm(1)
	}
}

// Prewarm starts up to n workers in the background, up to the number kept warm.
func (p *Pool) Prewarm(n int) {
	for i := 0; i < n; i++ {
		p.mu.Lock()
		full := p.closed || len(p.idle) >= p.cfg.Warm
		p.mu.Unlock()
		if full {
			return
		}
		w, err := p.start()
		if err != nil {
			p.cfg.Logger.Warn("script worker not started", "err", err)
			return
		}
		p.put(w)
	}
}

// PIDs returns the process IDs of the pool's workers (for measuring their memory).
func (p *Pool) PIDs() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]int, 0, len(p.all))
	for w := range p.all {
		out = append(out, w.pid)
	}
	return out
}

// Close stops every worker; runs going on end as their workers die.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	ws := make([]*proc, 0, len(p.all))
	for w := range p.all {
		ws = append(ws, w)
	}
	p.idle = nil
	p.mu.Unlock()
	for _, w := range ws {
		w.kill()
	}
}
