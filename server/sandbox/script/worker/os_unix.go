//go:build unix

package worker

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// exitCPU is a worker's exit status when it used up the CPU time of its run (RLIMIT_CPU).
const exitCPU = 3

// addressAllowance is what a worker's address space may grow by beyond the run's memory:
// what is not memory in use (the 8 MiB stack of each of its few threads, the heap's free pages
// and the Go runtime's reservations, which grow by 64 MiB at a time).
const addressAllowance = 256 << 20

// setupChild bounds this worker process: the Go runtime keeps its memory under memory bytes
// (a soft limit: it collects harder); RLIMIT_AS stops any allocation that would take its
// address space past what it has now plus memory and addressAllowance, and RLIMIT_DATA does
// the same for its data (the process ends "out of memory"). RLIMIT_DATA alone would not do:
// the kernel does not count the heap the Go runtime maps into address space it reserved
// before. One goroutine's stack is at most 64 MiB, the worker has one processor, and its CPU
// time is bounded by RLIMIT_CPU (set a run at a time by limitCPU).
func setupChild(memory uint64) error {
	if memory > 0 {
		data := memory + addressAllowance
		if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: data, Max: data}); err != nil {
			return fmt.Errorf("setting RLIMIT_DATA to %d bytes: %w", data, err)
		}
		if size := addressSpace(); size > 0 {
			as := size + memory + addressAllowance
			if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: as, Max: as}); err != nil {
				return fmt.Errorf("setting RLIMIT_AS to %d bytes: %w", as, err)
			}
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

// addressSpace is this process's address space in bytes (VmSize), 0 when the system does not
// say (/proc/self/status is Linux's).
func addressSpace() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
