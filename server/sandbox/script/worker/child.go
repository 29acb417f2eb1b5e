package worker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"loupe/server/sandbox/script/engine"
)

// flushEvery is how often a worker sends the lines its run has logged: they reach the server
// even while the run is stuck in a built-in, and are there when a limit kills it. A line
// logged when nothing was sent for flushEvery goes at once, before the run goes on, so that
// the line a run logs just before it dies (an allocation past the memory limit ends the
// process at once) reaches the server too.
const flushEvery = 20 * time.Millisecond

// Exit statuses of a worker whose run passed a limit inside a built-in that would not stop.
const (
	exitMemory = 4
	exitTime   = 5
)

// stuck ends the worker whose run passed a limit and could not be interrupted: the server
// reads the limit from the exit status and starts another worker.
func stuck(limit string) {
	if limit == engine.LimitMemory {
		os.Exit(exitMemory)
	}
	os.Exit(exitTime)
}

// child is the worker's side of the pipe.
type child struct {
	in *bufio.Reader

	wmu sync.Mutex // one frame at a time on out
	out io.Writer

	lmu     sync.Mutex
	pending []string  // log lines not yet sent
	sent    time.Time // when log lines were last sent
}

// Serve runs the jobs read from in, one at a time, answering on out, until in ends: the loop
// of a worker process (see Main).
func Serve(in io.Reader, out io.Writer) error {
	c := &child{in: bufio.NewReaderSize(in, 64<<10), out: out}
	for {
		f, err := readFrame(c.in, maxJobFrame)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading a job: %w", err)
		}
		if f.Kind != kindJob || f.Job == nil {
			return fmt.Errorf("a %s frame came instead of a job", f.Kind)
		}
		if err := c.run(*f.Job); err != nil {
			return err
		}
		// The next job starts from a small heap: what a big one left is collected and returned.
		if heapInUse() > 32<<20 {
			debug.FreeOSMemory()
		}
	}
}

// run runs one job and sends its result; the logs go as they come (flush).
func (c *child) run(job engine.Job) error {
	limitCPU(job.Limits.Timeout)
	stop := make(chan struct{})
	flushed := make(chan struct{})
	go func() {
		defer close(flushed)
		t := time.NewTicker(flushEvery)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if c.flush() != nil {
					return
				}
			}
		}
	}()
	res := engine.RunWith(context.Background(), job, &childHost{c: c}, stuck)
	close(stop)
	<-flushed
	if err := c.flush(); err != nil {
		return err
	}
	res.Logs = nil // they went as log frames
	return c.send(&frame{Kind: kindResult, Result: &res})
}

// send writes one frame.
func (c *child) send(f *frame) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return writeFrame(c.out, f)
}

// flush sends the log lines not yet sent. It holds the pipe from taking the lines to writing
// them, so that two flushes (the loop's and a Log's) keep the lines in order.
func (c *child) flush() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.lmu.Lock()
	lines := c.pending
	c.pending = nil
	if len(lines) > 0 {
		c.sent = time.Now()
	}
	c.lmu.Unlock()
	if len(lines) == 0 {
		return nil
	}
	return writeFrame(c.out, &frame{Kind: kindLog, Lines: lines})
}

// call sends a request (after the lines logged before it) and reads its answer.
func (c *child) call(req *frame, want string) (*frame, error) {
	if err := c.flush(); err != nil {
		return nil, err
	}
	if err := c.send(req); err != nil {
		return nil, err
	}
	f, err := readFrame(c.in, maxJobFrame)
	if err != nil {
		return nil, fmt.Errorf("reading the answer to %s: %w", req.Kind, err)
	}
	if f.Kind != want {
		return nil, fmt.Errorf("a %s frame came instead of %s", f.Kind, want)
	}
	if f.Err != "" {
		return f, errors.New(f.Err)
	}
	return f, nil
}

// childHost is engine.Host over the pipe: the server keeps the user's state and the locks.
type childHost struct{ c *child }

// Load implements engine.Host.
func (h *childHost) Load(key string) (json.RawMessage, error) {
	f, err := h.c.call(&frame{Kind: kindLoad, Key: key}, kindLoaded)
	if err != nil {
		return nil, err
	}
	if len(f.Doc) == 0 || string(f.Doc) == "null" {
		return nil, nil
	}
	return f.Doc, nil
}

// Commit implements engine.Host.
func (h *childHost) Commit(changes []engine.Change) error {
	_, err := h.c.call(&frame{Kind: kindCommit, Changes: changes}, kindDone)
	return err
}

// Lock implements engine.Host.
func (h *childHost) Lock(scope string, wait time.Duration) (bool, error) {
	f, err := h.c.call(&frame{Kind: kindLock, Scope: scope, Wait: wait}, kindLocked)
	if err != nil {
		return false, err
	}
	return f.OK, nil
}

// Unlock implements engine.Host.
func (h *childHost) Unlock(scope string) error {
	_, err := h.c.call(&frame{Kind: kindUnlock, Scope: scope}, kindDone)
	return err
}

// Log implements engine.Host: the line goes with the next flush, or at once when nothing was
// sent for flushEvery (a write error is the flush loop's to meet).
func (h *childHost) Log(line string) {
	h.c.lmu.Lock()
	h.c.pending = append(h.c.pending, line)
	now := time.Now()
	due := now.Sub(h.c.sent) >= flushEvery
	h.c.lmu.Unlock()
	if due {
		_ = h.c.flush()
	}
}

// heapInUse is the bytes of the heap's spans in use.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
