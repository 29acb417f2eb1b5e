//go:build js

package script

import (
	"context"

	"loupe/server/sandbox/script/engine"
)

// inProcessRunner runs each job in the engine itself: the browser's sandbox module cannot
// start processes, so its limits are the engine's cooperative ones (the time limit, regular
// expressions included, the heap's growth, which is this tab's alone, and a request the page
// aborted); a built-in that loops or allocates without returning to the interpreter is not
// stopped.
type inProcessRunner struct{ memory uint64 }

// newRunner returns the in-process runner.
func newRunner(memory uint64, runs int) runner { return inProcessRunner{memory: memory} }

// run implements runner.
func (r inProcessRunner) run(ctx context.Context, job engine.Job, host engine.Host) engine.Result {
	if job.Limits.Memory == 0 {
		job.Limits.Memory = r.memory
	}
	return engine.RunWith(ctx, job, host, nil)
}
