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

// setupChild bounds this worker process: its data (the Go heap and stacks) to memory bytes by
// RLIMIT_DATA, with the Go runtime's soft limit under it, one goroutine stack to 64 MiB, one
// processor, and its CPU time by RLIMIT_CPU (set a run at a time by limitCPU).
func setupChild(memory uint64) error {
	if memory > 0 {
		if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: memory, Max: memory}); err != nil {
			return fmt.Errorf("setting RLIMIT_DATA to %d bytes: %w", memory, err)
		}
		debug.SetMemoryLimit(int64(memory - memory/8))
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
