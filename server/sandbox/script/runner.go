package script

import (
	"context"

	"loupe/server/sandbox/script/engine"
)

// runner executes a run's job: in a worker process on the server (runner_process.go), in the
// engine itself in the browser's sandbox module (runner_wasm.go).
type runner interface {
	run(ctx context.Context, job engine.Job, host engine.Host) engine.Result
}
