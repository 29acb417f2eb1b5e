package engine

import (
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/dop251/goja"
)

// watchdog holds a run to its time and memory limits cooperatively: it interrupts the
// runtime at the deadline, or when the heap stays past the memory limit after a collection
// since the run started (sampled every 10 ms), and wakes what waits (Utilities.sleep, LockService) with done.
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
func watch(vm *goja.Runtime, lim Limits, stuck func(limit string)) *watchdog {
	w := &watchdog{deadline: time.Now().Add(lim.Timeout), done: make(chan struct{}), stop: make(chan struct{}), stuck: stuck}
	go w.loop(vm, lim)
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
func (w *watchdog) loop(vm *goja.Runtime, lim Limits) {
	deadline := time.NewTimer(time.Until(w.deadline))
	defer deadline.Stop()
	var tick <-chan time.Time
	if lim.Memory > 0 {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	lastGC := time.Time{}
	base := heapBytes()
	over := func() bool { h := heapBytes(); return h > base && h-base > lim.Memory }
	for {
		select {
		case <-w.stop:
			close(w.done)
			return
		case <-deadline.C:
			w.interrupt(vm, errRunTimeout, LimitTime)
			return
		case <-tick:
			if !over() {
				continue
			}
			// Garbage counts until it is collected: collect (at most every 100 ms), then judge.
			if time.Since(lastGC) > 100*time.Millisecond {
				runtime.GC()
				lastGC = time.Now()
				if !over() {
					continue
				}
			}
			w.interrupt(vm, errRunMemory, LimitMemory)
			return
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
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
