package config

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Walkthrough names walkthroughs of your own: Arazzo documents whose source descriptions are
// the configured APIs, run in the browser and with `loupe walk <id>`.
type Walkthrough struct {
	// Path is an Arazzo document (a file ending .arazzo.yaml, .arazzo.yml or .arazzo.json) or
	// a folder of them (its subfolders included), relative to the working directory like
	// apis.<slug>.openapi. Required.
	Path string `yaml:"path"`
	// Sources maps the documents' source description names to API slugs (built-in APIs or
	// apis.<slug> of your own), for a source Loupe cannot match by itself: by its url (the
	// file of an API's apis.<slug>.openapi) or its name (an API's slug). Nil means none.
	Sources map[string]string `yaml:"sources"`
}

// WalkthroughFile is one document the walkthroughs key names.
type WalkthroughFile struct {
	// Path is the document's file; Key the setting that named it (walkthroughs[i].path).
	Path, Key string
	// Sources is the entry's walkthroughs[i].sources.
	Sources map[string]string
}

// walkthroughSuffixes end the names of the files a walkthroughs folder holds.
var walkthroughSuffixes = []string{".arazzo.yaml", ".arazzo.yml", ".arazzo.json"}

// IsWalkthroughFile reports whether a file name is an Arazzo document's.
func IsWalkthroughFile(name string) bool {
	for _, s := range walkthroughSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// WalkthroughFiles lists the documents of the walkthroughs key, in order: each entry's file,
// or the Arazzo documents of its folder in name order.
func (c *Config) WalkthroughFiles() ([]WalkthroughFile, error) {
	var out []WalkthroughFile
	for i, w := range c.Walkthroughs {
		key := fmt.Sprintf("walkthroughs[%d].path", i)
		st, err := os.Stat(w.Path)
		if err != nil {
			return nil, errKey(key, "expected an Arazzo document (.arazzo.yaml or .arazzo.json) or a folder of them: %v", err)
		}
		if !st.IsDir() {
			out = append(out, WalkthroughFile{Path: w.Path, Key: key, Sources: w.Sources})
			continue
		}
		var found []string
		err = filepath.WalkDir(w.Path, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && IsWalkthroughFile(d.Name()) {
				found = append(found, p)
			}
			return err
		})
		if err != nil {
			return nil, errKey(key, "reading the folder: %v", err)
		}
		slices.Sort(found)
		for _, p := range found {
			out = append(out, WalkthroughFile{Path: p, Key: key, Sources: w.Sources})
		}
	}
	return out, nil
}

// validateWalkthroughs checks the walkthroughs key: each path exists (a document or a folder),
// and each source mapping names an API.
func (c *Config) validateWalkthroughs() error {
	for i, w := range c.Walkthroughs {
		key := fmt.Sprintf("walkthroughs[%d]", i)
		if w.Path == "" {
			return errKey(key+".path", "expected the path of an Arazzo document or a folder of them")
		}
		st, err := os.Stat(w.Path)
		switch {
		case err != nil:
			return errKey(key+".path", "expected an Arazzo document (.arazzo.yaml or .arazzo.json) or a folder of them: %v", err)
		case !st.IsDir() && !IsWalkthroughFile(w.Path):
			return errKey(key+".path", "%s: expected a file ending .arazzo.yaml, .arazzo.yml or .arazzo.json, or a folder", w.Path)
		}
		for _, name := range slices.Sorted(maps.Keys(w.Sources)) {
			if slug := w.Sources[name]; c.APIs[slug] == nil {
				return errKey(key+".sources."+name, "%q is not an API; expected one of the apis keys: %s", slug, strings.Join(slices.Sorted(maps.Keys(c.APIs)), ", "))
			}
		}
	}
	return nil
}

// walkthroughWatch lists what a change of the walkthroughs shows in: each entry's path, and
// the documents of its folders (a folder's own time changes when a file is added or removed,
// not when one is edited).
func (c *Config) walkthroughWatch() []string {
	var out []string
	for _, w := range c.Walkthroughs {
		out = append(out, w.Path)
	}
	if files, err := c.WalkthroughFiles(); err == nil {
		for _, f := range files {
			if !slices.Contains(out, f.Path) {
				out = append(out, f.Path)
			}
		}
	}
	return out
}
