package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"loupe/server"
	"loupe/server/config"
	"loupe/server/walkthrough"
)

// walkUsage is printed for `loupe walk -h` and after a usage error.
const walkUsage = `usage: loupe walk <id> [-config loupe.yaml] [-input name=value]...

Runs the walkthrough content/walkthroughs/<id>.arazzo.yaml headless against the configured
APIs (the built-in sandboxes unless the configuration names real ones), through Loupe's proxy,
and prints each step, its status and its criteria. Exit status: 0 when every criterion held,
1 when a step failed, 2 for bad usage or input.
`

// inputFlags collects repeated -input name=value flags.
type inputFlags map[string]string

func (f inputFlags) String() string { return "" }

func (f inputFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("%q: expected name=value", s)
	}
	f[name] = value
	return nil
}

// walkMain is `loupe walk`; it returns the exit status.
func walkMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("walk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, walkUsage) }
	path := fs.String("config", os.Getenv("LOUPE_CONFIG"), "configuration file (env LOUPE_CONFIG)")
	inputs := inputFlags{}
	fs.Var(inputs, "input", "a workflow input as name=value (repeatable)")
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if id == "" && fs.NArg() > 0 {
		id = fs.Arg(0)
	}
	if id == "" || fs.NArg() > 1 || (fs.NArg() == 1 && fs.Arg(0) != id) {
		fmt.Fprint(stderr, walkUsage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := walk(ctx, id, *path, inputs)
	if err != nil {
		fmt.Fprintln(stderr, "loupe walk:", err)
		var ie *walkthrough.InputError
		if errors.As(err, &ie) {
			fmt.Fprintln(stderr, "Give inputs as -input name=value; `loupe walk -h` says more.")
			return 2
		}
		if errors.Is(err, errUnknownWalkthrough) {
			return 2
		}
		return 1
	}
	rep.Write(stdout)
	if !rep.OK {
		return 1
	}
	return 0
}

var errUnknownWalkthrough = errors.New("unknown walkthrough")

// walk starts Loupe in-process on a loopback port and runs the walkthrough through its proxy.
func walk(ctx context.Context, id, path string, inputs map[string]string) (*walkthrough.Report, error) {
	settings, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := server.New(server.Config{Settings: settings, Logger: quiet})
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	w := srv.Walkthroughs().Get(id)
	if w == nil {
		return nil, fmt.Errorf("%w %q; the walkthroughs are: %s", errUnknownWalkthrough, id, strings.Join(srv.Walkthroughs().IDs(), ", "))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on a loopback port: %w", err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()
	x := &walkthrough.HTTPExecutor{API: w.API, Base: "http://" + ln.Addr().String() + "/proxy/" + w.API.Slug}
	return walkthrough.Run(ctx, w, inputs, x)
}
