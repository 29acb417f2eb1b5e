package main

import (
	"flag"
	"fmt"
	"os"

	"loupe/server"
	"loupe/server/config"
)

// runStatic is `loupe static -o DIR [-base /prefix/] [-config loupe.yaml]`: it writes the static
// explorer, with the walkthroughs of the configuration's walkthroughs key beside the built-in
// ones.
func runStatic(args []string) error {
	fl := flag.NewFlagSet("loupe static", flag.ContinueOnError)
	out := fl.String("o", "", "output folder (required); created, or replaced when it holds an earlier static site")
	base := fl.String("base", "/", "sub-path the folder is published under, such as /api/ or /<repo>/ on GitHub Pages")
	cfgPath := fl.String("config", "", "a configuration whose walkthroughs key adds walkthroughs of your own (of the built-in APIs) to the site")
	fl.Usage = func() {
		fmt.Fprintln(fl.Output(), "usage: loupe static -o DIR [-base /prefix/] [-config loupe.yaml]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *out == "" || fl.NArg() > 0 {
		fl.Usage()
		return fmt.Errorf("static: give the output folder with -o DIR")
	}
	var settings *config.Config
	if *cfgPath != "" {
		var err error
		if settings, err = config.Load(*cfgPath); err != nil {
			return fmt.Errorf("static: %w", err)
		}
	}
	sum, err := server.WriteStatic(server.StaticConfig{Dir: *out, Base: *base, Settings: settings})
	if err != nil {
		return fmt.Errorf("static: %w", err)
	}
	b, _ := server.CheckBase(*base)
	fmt.Fprintf(os.Stdout, "wrote %s: %d pages, %d files, %.1f MB, for %s\n", *out, sum.Pages, sum.Files, float64(sum.Bytes)/1e6, b)
	if b == "/" {
		fmt.Fprintf(os.Stdout, "try it: python3 -m http.server -d %s 8000, then open http://127.0.0.1:8000/\n", *out)
	} else {
		fmt.Fprintf(os.Stdout, "publish the folder's files so they answer under %s (try it: copy them to ROOT%s, run python3 -m http.server -d ROOT 8000, open http://127.0.0.1:8000%s)\n", b, b, b)
	}
	return nil
}
