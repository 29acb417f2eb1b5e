package worker

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"loupe/server/sandbox/script/engine"
)

// slowNice is the scheduling priority of a run that has gone on past SlowAfter: a tenth of
// the processor's share of an ordinary process (nice 0) when both want it, so that a long run
// slows others' short runs little but still makes progress on a busy machine.
const slowNice = 10

// proc is one worker process, seen from the server.
type proc struct {
	cmd      *exec.Cmd
	pid      int
	stdin    io.WriteCloser
	frames   chan *frame   // from the worker, closed when its stdout ends
	readErr  error         // why frames was closed; set before it is
	exited   chan struct{} // closed when the process is waited for
	stderr   *head
	maxFrame atomic.Int64 // the longest frame the current job may send
	once     sync.Once
}

// startProc starts a worker: cmd with EnvWorker set and the memory limit.
func startProc(cmd []string, memory uint64) (*proc, error) {
	c := exec.Command(cmd[0], cmd[1:]...)
	c.Env = append(os.Environ(), EnvWorker+"=1", envMemory+"="+strconv.FormatUint(memory, 10), "GOTRACEBACK=none")
	c.SysProcAttr = procAttr()
	w := &proc{cmd: c, frames: make(chan *frame), exited: make(chan struct{}), stderr: &head{max: 4 << 10}}
	c.Stderr = w.stderr
	in, err := c.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("starting a script worker: %w", err)
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("starting a script worker: %w", err)
	}
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("starting a script worker: %w", err)
	}
	w.pid, w.stdin = c.Process.Pid, in
	w.maxFrame.Store(minFrameSize)
	go func() {
		r := bufio.NewReaderSize(out, 64<<10)
		for {
			f, err := readFrame(r, int(w.maxFrame.Load()))
			if err != nil {
				w.readErr = err
				close(w.frames)
				return
			}
			w.frames <- f
		}
	}()
	go func() {
		_ = c.Wait()
		close(w.exited)
	}()
	return w, nil
}

// kill ends the worker (SIGKILL); the system reaps it in the background (a process that held
// much memory takes a moment to go, and the run's answer need not wait for it).
func (w *proc) kill() {
	w.once.Do(func() {
		_ = w.cmd.Process.Kill()
		_ = w.stdin.Close()
		go func() { // let the reader end
			for range w.frames {
			}
		}()
	})
}

// run runs one job on w. healthy says whether w may take another job; sent whether the job
// reached it (a worker that died idle did not take it).
func (w *proc) run(ctx context.Context, job engine.Job, host engine.Host, cfg Config) (res engine.Result, healthy, sent bool) {
	lim := job.Limits
	w.maxFrame.Store(int64(max(lim.MaxResult+frameSlack, minFrameSize)))
	w.stderr.reset()
	logs := &logSink{maxLines: lim.MaxLogLines, maxBytes: lim.MaxLogBytes}
	if logs.maxLines <= 0 || logs.maxBytes <= 0 {
		logs.maxLines, logs.maxBytes = engine.DefaultLimits.MaxLogLines, engine.DefaultLimits.MaxLogBytes
	}
	if err := writeFrame(w.stdin, &frame{Kind: kindJob, Job: &job}); err != nil {
		return engine.Result{Fail: &engine.Failure{Type: "Error", Message: "The sandbox's script worker stopped before the run."}}, false, false
	}
	timeout := lim.Timeout
	if timeout <= 0 {
		timeout = engine.DefaultLimits.Timeout
	}
	deadline := time.NewTimer(timeout + cfg.Grace)
	defer deadline.Stop()
	var slow <-chan time.Time
	if cfg.SlowAfter > 0 {
		t := time.NewTimer(cfg.SlowAfter)
		defer t.Stop()
		slow = t.C
	}
	niced := false
	stopped := func(f *engine.Failure) (engine.Result, bool, bool) {
		w.kill()
		return engine.Result{Fail: f, Logs: logs.lines, LogsDropped: logs.dropped}, false, true
	}
	for {
		select {
		case f, ok := <-w.frames:
			if !ok {
				f := w.died()
				if f.Limit == "" {
					cfg.Logger.Warn("script worker stopped unexpectedly", "pid", w.pid, "said", firstLine(w.stderr.String()))
				}
				return stopped(f)
			}
			if f.Kind == kindResult && f.Result != nil {
				r := *f.Result
				r.Logs, r.LogsDropped = logs.lines, logs.dropped+r.LogsDropped
				// A run stopped at its memory limit leaves the worker's address space grown to
				// it (the Go runtime keeps what it reserved), so that the next run could meet
				// the OS limits before its own: starting a thread would fail, and that run
				// would be told it exceeded the memory limit. Such a worker is replaced.
				spent := r.Fail != nil && r.Fail.Limit == engine.LimitMemory
				return r, !spent && (!niced || renice(w.pid, 0) == nil), true
			}
			if err := w.answer(f, host, logs); err != nil {
				return stopped(&engine.Failure{Type: "Error", Message: "The sandbox stopped the run: " + err.Error()})
			}
		case <-deadline.C:
			return stopped(&engine.Failure{Message: "Exceeded maximum execution time", Limit: engine.LimitTime})
		case <-ctx.Done():
			return stopped(&engine.Failure{Message: "The run was stopped: its caller went away.", Limit: engine.LimitClient})
		case <-slow:
			niced = renice(w.pid, slowNice) == nil || niced
		}
	}
}

// answer handles one request of the worker.
func (w *proc) answer(f *frame, host engine.Host, logs *logSink) error {
	var reply *frame
	switch f.Kind {
	case kindLog:
		for _, l := range f.Lines {
			logs.add(l)
		}
		return nil
	case kindLoad:
		doc, err := host.Load(f.Key)
		reply = &frame{Kind: kindLoaded, Doc: doc, Err: errText(err)}
	case kindCommit:
		reply = &frame{Kind: kindDone, Err: errText(host.Commit(f.Changes))}
	case kindLock:
		ok, err := host.Lock(f.Scope, f.Wait)
		reply = &frame{Kind: kindLocked, OK: ok, Err: errText(err)}
	case kindUnlock:
		reply = &frame{Kind: kindDone, Err: errText(host.Unlock(f.Scope))}
	default:
		return fmt.Errorf("the worker sent a %s frame", f.Kind)
	}
	return writeFrame(w.stdin, reply)
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// died is the failure of a worker that ended during a run: which OS limit it met, read from
// its exit and its last words on stderr.
func (w *proc) died() *engine.Failure {
	if tl, ok := w.readErr.(errTooLarge); ok {
		return &engine.Failure{Type: "ScriptError", Limit: engine.LimitResult, Message: fmt.Sprintf(
			"Exceeded maximum result size: the run sent %d bytes at once; the sandbox reads at most %d.", tl.n, tl.max)}
	}
	select {
	case <-w.exited:
	case <-time.After(2 * time.Second):
		w.kill()
	}
	said := w.stderr.String()
	code := -1
	if st := w.cmd.ProcessState; st != nil {
		code = st.ExitCode()
	}
	switch {
	case code == exitMemory || strings.Contains(said, "out of memory") || strings.Contains(said, "cannot allocate memory") ||
		strings.Contains(said, "pthread_create failed"):
		return &engine.Failure{Message: "Exceeded memory limit", Limit: engine.LimitMemory}
	case strings.Contains(said, "stack overflow") || strings.Contains(said, "stack exceeds"):
		return &engine.Failure{Type: "RangeError", Message: "Maximum call stack size exceeded", Limit: engine.LimitStack}
	case code == exitCPU || code == exitTime:
		return &engine.Failure{Message: "Exceeded maximum execution time", Limit: engine.LimitTime}
	}
	return &engine.Failure{Type: "Error", Message: fmt.Sprintf("The sandbox's script worker stopped unexpectedly (exit status %d): %s",
		code, firstLine(said))}
}

// firstLine is the first non-empty line of s.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return "no message"
}

// logSink keeps the lines a run logs within its bounds, counting the rest.
type logSink struct {
	maxLines, maxBytes int
	lines              []string
	bytes, dropped     int
}

// add keeps line or counts it.
func (s *logSink) add(line string) {
	if len(s.lines) >= s.maxLines || s.bytes+len(line) > s.maxBytes+1024 {
		s.dropped++
		return
	}
	s.lines = append(s.lines, line)
	s.bytes += len(line)
}

// head keeps the first max bytes written to it since reset: a Go runtime's fatal error
// starts with its reason ("fatal error: runtime: out of memory").
type head struct {
	mu  sync.Mutex
	max int
	b   []byte
}

// Write implements io.Writer.
func (h *head) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// reset forgets what was kept.
func (h *head) reset() {
	h.mu.Lock()
	h.b = h.b[:0]
	h.mu.Unlock()
}

// String returns what was kept.
func (h *head) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(h.b)
}
