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
// per-run memory limit, keeping a worker ready for each of the runs that may go on at once.
func newRunner(memory uint64, runs int) runner {
	return processRunner{pool: worker.Shared(memory, runs)}
}

// run implements runner.
func (r processRunner) run(ctx context.Context, job engine.Job, host engine.Host) engine.Result {
	return r.pool.Run(ctx, job, host)
}
