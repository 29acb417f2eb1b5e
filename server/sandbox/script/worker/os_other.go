//go:build !unix

package worker

import (
	"errors"
	"time"
)

// exitCPU is a worker's exit status when it used up the CPU time of its run.
const exitCPU = 3

// setupChild cannot bound a process on this system: workers run without OS limits; the
// server's timer still ends a run at its time limit.
func setupChild(memory uint64) error { return nil }

// limitCPU does nothing on this system.
func limitCPU(timeout time.Duration) {}

// renice is not offered on this system.
func renice(pid, nice int) error { return errors.New("renice: not offered on this system") }
