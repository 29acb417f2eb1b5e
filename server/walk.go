package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"loupe/app/catalog"
	"loupe/server/config"
	"loupe/server/walkthrough"
	"loupe/server/walkthrough/flow"
)

// ErrUnknownWalkthrough is Walk's error for a name that is neither a walkthrough's id nor a file.
var ErrUnknownWalkthrough = errors.New("unknown walkthrough")

// WalkLoadError is Walk's error for a walkthrough file that does not load: Err joins its
// problems, each at its line.
type WalkLoadError struct{ Err error }

func (e *WalkLoadError) Error() string { return e.Err.Error() }
func (e *WalkLoadError) Unwrap() error { return e.Err }

// Walk is `loupe walk`: it starts Loupe with settings in-process on a loopback port and runs a
// walkthrough (one of its ids or aliases, else an Arazzo file) through its proxy, as a browser
// would, the workflow given (the first for "") with the inputs given. A step that fails is in
// the report; the error is for a walkthrough that cannot run at all (ErrUnknownWalkthrough,
// *WalkLoadError, *walkthrough.InputError, or a server that cannot start).
func Walk(ctx context.Context, settings *config.Config, id, workflow string, inputs map[string]string) (*walkthrough.Report, error) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := New(Config{Settings: settings, Logger: quiet})
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	w := srv.Walkthroughs().Get(id)
	if w == nil {
		if _, statErr := os.Stat(id); statErr != nil {
			return nil, fmt.Errorf("%w %q: neither one of the walkthroughs (%s) nor a file", ErrUnknownWalkthrough, id, strings.Join(srv.Walkthroughs().IDs(), ", "))
		}
		if w, err = srv.LoadWalkthrough(id); err != nil {
			return nil, &WalkLoadError{err}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on a loopback port: %w", err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()
	base := "http://" + ln.Addr().String() + "/proxy/"
	x := &walkthrough.Executor{Base: func(api *catalog.API) string { return base + api.Slug }}
	return walkthrough.Walk(ctx, w, workflow, inputs, x, flow.Options{})
}
