package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"loupe/server"
	"loupe/server/config"
)

// staticFlags defines the flags of `loupe static` on fl.
func staticFlags(fl *flag.FlagSet) (out, base, cfgPath *string) {
	out = fl.String("o", "", "output folder (required); created, or replaced when it holds an earlier static site")
	base = fl.String("base", "/", "sub-path the folder is published under, such as /api/ or /<repo>/ on GitHub Pages")
	cfgPath = fl.String("config", "", "a configuration whose APIs of your own (answered by their in-browser sandboxes) and walkthroughs are added to the site")
	return out, base, cfgPath
}

// writeStaticUsage writes the usage of `loupe static`.
func writeStaticUsage(w io.Writer) {
	fl := flag.NewFlagSet("loupe static", flag.ContinueOnError)
	staticFlags(fl)
	fl.SetOutput(w)
	fmt.Fprint(w, `usage: loupe static -o DIR [-base /prefix/] [-config loupe.yaml]

Writes the whole playground as files: any static host serves them, and every Send is answered
by the built-in sandboxes running in the browser (or by a real API, with a key typed in the tab).
With -config, the configuration's APIs of your own (each answered by a sandbox built from its
document, in the browser) and its walkthroughs are on the site too.

`)
	fl.PrintDefaults()
}

// staticMain is `loupe static -o DIR [-base /prefix/] [-config loupe.yaml]`: it writes the
// static explorer, with the configuration's APIs of your own and walkthroughs beside the
// built-in ones, and returns the exit status.
func staticMain(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("loupe static", flag.ContinueOnError)
	out, base, cfgPath := staticFlags(fl)
	fl.SetOutput(stderr)
	fl.Usage = func() {}
	switch err := fl.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		writeStaticUsage(stdout)
		return 0
	case err != nil:
		fmt.Fprintln(stderr, "loupe help static says more")
		return 2
	case *out == "" || fl.NArg() > 0:
		writeStaticUsage(stderr)
		fmt.Fprintln(stderr, "\nloupe static: give the output folder with -o DIR")
		return 2
	}
	var settings *config.Config
	if *cfgPath != "" {
		var err error
		if settings, err = config.Load(*cfgPath); err != nil {
			fmt.Fprintln(stderr, "loupe static:", err)
			return 1
		}
	}
	sum, err := server.WriteStatic(server.StaticConfig{Dir: *out, Base: *base, Settings: settings})
	if err != nil {
		fmt.Fprintln(stderr, "loupe static:", err)
		return 1
	}
	b, _ := server.CheckBase(*base)
	fmt.Fprintf(stdout, "wrote %s: %d pages, %d files, %.1f MB, for %s\n", *out, sum.Pages, sum.Files, float64(sum.Bytes)/1e6, b)
	if b == "/" {
		fmt.Fprintf(stdout, "try it: python3 -m http.server -d %s 8000, then open http://127.0.0.1:8000/\n", *out)
	} else {
		fmt.Fprintf(stdout, "publish the folder's files so they answer under %s (try it: copy them to ROOT%s, run python3 -m http.server -d ROOT 8000, open http://127.0.0.1:8000%s)\n", b, b, b)
	}
	return 0
}
