//go:build unix

package worker

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"
)

// exitCPU is a worker's exit status when it used up the CPU time of its run (RLIMIT_CPU).
const exitCPU = 3

// dataAllowance is what a worker's RLIMIT_DATA adds to the run's memory: address space that is
// not memory in use (the 8 MiB stack of each of its few threads, the heap's free pages).
const dataAllowance = 96 << 20

// setupChild bounds this worker process: the Go runtime keeps its memory under memory bytes
// (a soft limit: it collects harder), RLIMIT_DATA stops any allocation past memory plus
// dataAllowance (the process ends "out of memory"), one goroutine's stack is at most 64 MiB,
// it has one processor, and its CPU time is bounded by RLIMIT_CPU (set a run at a time by
// limitCPU).
func setupChild(memory uint64) error {
	if memory > 0 {
		data := memory + dataAllowance
		if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: data, Max: data}); err != nil {
			return fmt.Errorf("setting RLIMIT_DATA to %d bytes: %w", data, err)
		}
		debug.SetMemoryLimit(int64(memory))
	}
	debug.SetMaxStack(64 << 20)
	runtime.GOMAXPROCS(1)
	xcpu := make(chan os.Signal, 1)
	signal.Notify(xcpu, syscall.SIGXCPU)
	go func() {
		<-xcpu
		fmt.Fprintln(os.Stderr, "loupe script worker: CPU time limit")
		os.Exit(exitCPU)
	}()
	return nil
}

// limitCPU lets the coming run use at most its time limit of CPU (plus two seconds for the
// engine's own work) on top of what the worker used so far.
func limitCPU(timeout time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return
	}
	used := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	secs := uint64((used+timeout+2*time.Second)/time.Second) + 1
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_CPU, &lim) != nil {
		return
	}
	lim.Cur = min(secs, lim.Max)
	_ = syscall.Setrlimit(syscall.RLIMIT_CPU, &lim)
}

// renice sets the scheduling priority (nice value) of process pid.
func renice(pid, nice int) error {
	return syscall.Setpriority(syscall.PRIO_PROCESS, pid, nice)
}
