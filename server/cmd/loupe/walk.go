package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"loupe/server"
	"loupe/server/config"
	"loupe/server/walkthrough"
)

// walkUsage is printed for `loupe walk -h` and after a usage error.
const walkUsage = `usage: loupe walk <id or file> [-workflow id] [-input name=value]... [-config loupe.yaml]

Runs a walkthrough headless against the configured APIs (the built-in sandboxes unless the
configuration names real ones), through Loupe's proxy, and prints each step, its status, its
criteria with why each held or failed, and the gotos and retries taken. The walkthrough is one
of Loupe's (content/walkthroughs/<id>.arazzo.yaml, or one the configuration's walkthroughs key
names) or an Arazzo file (.arazzo.yaml or .arazzo.json), whose source descriptions are matched
to the configured APIs. -workflow picks a workflow of the document (the first by default);
-input gives a workflow input (lists and objects as JSON). Exit status: 0 when the workflow
succeeded, 1 when it failed, 2 for bad usage, input or document.
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
	workflow := fs.String("workflow", "", "the workflow to run (the document's first by default)")
	inputs := inputFlags{}
	fs.Var(inputs, "input", "a workflow input as name=value (repeatable)")
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) { // asked for: the usage on stdout, and done
			fmt.Fprint(stdout, walkUsage)
			return 0
		}
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
	rep, err := walk(ctx, id, *workflow, *path, inputs)
	if err != nil {
		fmt.Fprintln(stderr, "loupe walk:", err)
		var ie *walkthrough.InputError
		if errors.As(err, &ie) {
			fmt.Fprintln(stderr, "Give inputs as -input name=value; `loupe walk -h` says more.")
			return 2
		}
		var le *server.WalkLoadError
		if errors.Is(err, server.ErrUnknownWalkthrough) || errors.As(err, &le) {
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

// walk runs the walkthrough with the configuration at path (server.Walk).
func walk(ctx context.Context, id, workflow, path string, inputs map[string]string) (*walkthrough.Report, error) {
	settings, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	return server.Walk(ctx, settings, id, workflow, inputs)
}
