//go:build !js

package script

import (
	"context"

	"loupe/server/sandbox/script/engine"
	"loupe/server/sandbox/script/worker"
)

// processRunner runs each job in a worker process with OS limits (package worker): the limits
// hold whatever the code does.
type processRunner struct{ pool *worker.Pool }

// newRunner returns the runner of a handler: the process's shared pool of workers with the
// per-run memory limit.
func newRunner(memory uint64) runner { return processRunner{pool: worker.Shared(memory)} }

// run implements runner.
func (r processRunner) run(ctx context.Context, job engine.Job, host engine.Host) engine.Result {
	return r.pool.Run(ctx, job, host)
}
