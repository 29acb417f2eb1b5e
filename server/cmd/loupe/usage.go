package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// usageHead is the first part of `loupe -h` and `loupe help`; the serving flags follow, then
// usageCommands.
const usageHead = `Loupe is an API playground: every documented operation of its APIs as a form in the browser,
sent through a credential-holding proxy to the real API or to a built-in sandbox.

usage:
  loupe [-addr host:port] [-config loupe.yaml] [-data DIR]
        serves the playground (with no configuration: http://127.0.0.1:8080, every API on its
        built-in sandbox)
  loupe walk <id or file> [-workflow id] [-input name=value]... [-config loupe.yaml]
        runs a walkthrough headless and prints each step (loupe help walk)
  loupe static -o DIR [-base /prefix/] [-config loupe.yaml]
        writes the static explorer, the playground as files (loupe help static)
  loupe help [walk | static]
        prints this text, or a command's

flags of the server:
`

// usageCommands ends the usage text.
const usageCommands = `
The configuration file is YAML (server/config/loupe.example.yaml explains every key); the
LOUPE_* environment variables override it (README.md lists them), and -addr overrides both.
On SIGHUP, or when the file or a credential file changes, it is read again.
`

// serveOptions are the flags of the server.
type serveOptions struct {
	addr, config, data string
}

// serveFlags defines the server's flags on fs.
func serveFlags(fs *flag.FlagSet) *serveOptions {
	o := &serveOptions{}
	fs.StringVar(&o.addr, "addr", "", "address to listen on (default 127.0.0.1:8080; overrides server.addr and LOUPE_ADDR)")
	fs.StringVar(&o.config, "config", os.Getenv("LOUPE_CONFIG"), "configuration file (env LOUPE_CONFIG); see server/config/loupe.example.yaml")
	fs.StringVar(&o.data, "data", "", "directory where the sandboxes keep each user's changes and the server its login sessions, OAuth grants and secret key (overrides server.data_dir and LOUPE_DATA_DIR; default: in memory)")
	return o
}

// writeUsage writes the whole usage text: the commands and every flag of the server.
func writeUsage(w io.Writer) {
	fs := flag.NewFlagSet("loupe", flag.ContinueOnError)
	serveFlags(fs)
	fs.SetOutput(w)
	fmt.Fprint(w, usageHead)
	fs.PrintDefaults()
	fmt.Fprint(w, usageCommands)
}

// cli runs the command args names and returns the exit status: 0 done, 1 failed, 2 bad usage.
// With no command, it serves the playground.
func cli(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		switch cmd, rest := args[0], args[1:]; cmd {
		case "walk":
			return walkMain(rest, stdout, stderr)
		case "static":
			return staticMain(rest, stdout, stderr)
		case "help":
			return helpMain(rest, stdout, stderr)
		default:
			fmt.Fprintf(stderr, "loupe: unknown command %q: the commands are walk, static and help; with none, loupe serves the playground (loupe help says more)\n", cmd)
			return 2
		}
	}
	opts, code := parseServe(args, stdout, stderr)
	if opts == nil {
		return code
	}
	if err := run(opts); err != nil {
		fmt.Fprintln(stderr, "loupe:", err)
		return 1
	}
	return 0
}

// parseServe parses the server's flags. It returns nil and the exit status when there is
// nothing to serve: -h (the usage, on stdout, 0) or bad usage (2).
func parseServe(args []string, stdout, stderr io.Writer) (*serveOptions, int) {
	fs := flag.NewFlagSet("loupe", flag.ContinueOnError)
	opts := serveFlags(fs)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // a bad flag says what it is; the usage is for -h
	switch err := fs.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		writeUsage(stdout)
		return nil, 0
	case err != nil:
		fmt.Fprintln(stderr, "loupe -h lists the commands and flags")
		return nil, 2
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "loupe: unexpected %q after the flags: a command (walk, static, help) comes first, as in loupe walk <id>\n", fs.Arg(0))
		return nil, 2
	}
	return opts, 0
}

// helpMain is `loupe help [command]`.
func helpMain(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		writeUsage(stdout)
		return 0
	case len(args) > 1:
		fmt.Fprintln(stderr, "loupe help: name one command, as in loupe help walk")
		return 2
	}
	switch args[0] {
	case "walk":
		fmt.Fprint(stdout, walkUsage)
	case "static":
		writeStaticUsage(stdout)
	case "help":
		writeUsage(stdout)
	default:
		fmt.Fprintf(stderr, "loupe help: unknown command %q: the commands are walk, static and help\n", args[0])
		return 2
	}
	return 0
}
