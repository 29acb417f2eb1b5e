package engine

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
)

// watchdog holds a run to its time and memory limits cooperatively: it interrupts the runtime
// at the deadline, when the run's context ends, or when the heap has grown past the memory
// limit since the run started (sampled every 10 ms), and wakes what waits (Utilities.sleep)
// with done.
type watchdog struct {
	deadline time.Time
	done     chan struct{} // closed when the run is interrupted or over
	stop     chan struct{} // closed by finish
	stuck    func(limit string)
}

// stuckAfter is how long an interrupted run may take to stop before it is called stuck: a
// built-in that neither returns nor checks for interrupts (a huge allocation the collector
// struggles with) holds the interpreter.
const stuckAfter = 300 * time.Millisecond

// watch starts the watchdog of vm for lim; stuck (may be nil) is called when an interrupted
// run does not stop within stuckAfter.
func watch(ctx context.Context, vm *goja.Runtime, lim Limits, stuck func(limit string)) *watchdog {
	w := &watchdog{deadline: time.Now().Add(lim.Timeout), done: make(chan struct{}), stop: make(chan struct{}), stuck: stuck}
	go w.loop(ctx, vm, lim)
	return w
}

// interrupt interrupts vm for reason, then waits for the run to stop.
func (w *watchdog) interrupt(vm *goja.Runtime, reason error, limit string) {
	vm.Interrupt(reason)
	close(w.done)
	if w.stuck == nil {
		return
	}
	select {
	case <-w.stop:
	case <-time.After(stuckAfter):
		select {
		case <-w.stop: // it stopped just now
		default:
			w.stuck(limit)
		}
	}
}

// loop is the watchdog's goroutine.
func (w *watchdog) loop(ctx context.Context, vm *goja.Runtime, lim Limits) {
	deadline := time.NewTimer(time.Until(w.deadline))
	defer deadline.Stop()
	var tick <-chan time.Time
	if lim.Memory > 0 {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	base, baseLive := heapBytes(), liveBytes()
	// collected counts the collections that ended while the heap was past the limit.
	var collected atomic.Int32
	var collecting atomic.Bool
	for {
		select {
		case <-w.stop:
			close(w.done)
			return
		case <-deadline.C:
			w.interrupt(vm, errRunTimeout, LimitTime)
			return
		case <-ctx.Done():
			w.interrupt(vm, errRunCancelled, LimitClient)
			return
		case <-tick:
			if h := heapBytes(); h <= base || h-base <= lim.Memory {
				collected.Store(0)
				continue
			}
			// Garbage counts until it is collected: past the limit, the run is over it when what
			// the last collection found alive is, or when the heap is still past it after two
			// collections asked for since it went past (a collector that cannot keep up is no
			// better). Counting collections, not time, keeps a run that only makes garbage on a
			// loaded machine, where a collection takes long, from being called a memory hog:
			// its deadline comes first. The worker's OS limits still hold the process meanwhile.
			if l := liveBytes(); l > baseLive && l-baseLive > lim.Memory {
				w.interrupt(vm, errRunMemory, LimitMemory)
				return
			}
			if collected.Load() >= 2 {
				w.interrupt(vm, errRunMemory, LimitMemory)
				return
			}
			if collecting.CompareAndSwap(false, true) {
				go func() {
					runtime.GC()
					collected.Add(1)
					collecting.Store(false)
				}()
			}
		}
	}
}

// finish stops the watchdog.
func (w *watchdog) finish() {
	close(w.stop)
	<-w.done
}

// sleep waits d, or until the run is interrupted: a sleep past the deadline ends when the
// run is interrupted for it.
func (w *watchdog) sleep(d time.Duration) {
	if d >= time.Until(w.deadline) {
		<-w.done
		return
	}
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-w.done:
	}
}

// heapBytes is the memory occupied by live and not yet swept heap objects.
func heapBytes() uint64 { return metric("/memory/classes/heap/objects:bytes") }

// liveBytes is the heap the last collection found alive.
func liveBytes() uint64 { return metric("/gc/heap/live:bytes") }

// metric reads a runtime metric of bytes (0 when unknown).
func metric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
