package worker

import (
	"fmt"
	"os"
	"strconv"
)

// A worker is the server's own binary started again (os.Executable) with EnvWorker set:
// whichever binary links this package, loupe itself or a test binary, becomes a worker before
// its main or its tests run, so `make run` and `go test` need no worker binary of their own.
const (
	// EnvWorker, set to "1", makes the process a worker.
	EnvWorker = "LOUPE_SCRIPT_WORKER"
	// envMemory is the worker's memory limit in bytes (RLIMIT_DATA).
	envMemory = "LOUPE_SCRIPT_WORKER_MEMORY"
)

func init() {
	if os.Getenv(EnvWorker) == "1" {
		os.Exit(Main())
	}
}

// Main is a worker process: it sets its OS limits, then serves jobs on stdin and stdout until
// the server closes stdin. It returns the exit status.
func Main() int {
	mem, _ := strconv.ParseUint(os.Getenv(envMemory), 10, 64)
	if err := setupChild(mem); err != nil {
		fmt.Fprintln(os.Stderr, "loupe script worker:", err)
		return 2
	}
	if err := Serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loupe script worker:", err)
		return 1
	}
	return 0
}
