package app

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The packages under app/, each in one room. Imports go from a feature down to shared code and
// from shared code down to the pure packages, never sideways between features and never up: a
// package may import the pure packages, the shared packages ranked below it, and (the shell
// only) the features. A new package under app/ fails TestLayout until it is listed here.
var (
	// pure holds the packages without go-app: logic tested natively, importable by the server.
	// They import only each other.
	pure = []string{"catalog", "fetch", "history", "jsonld", "markdown", "permalink", "request", "snippet", "sse", "textedit"}
	// shared holds the packages every feature may use, lowest first: each imports only the
	// pure packages and those before it.
	shared = []string{"ui", "op", "chatstream"}
	// features holds the packages of one feature each (an API's own view, a page of its own):
	// they import the pure and shared packages, never another feature.
	features = []string{"chat", "cluster", "historypage", "oauth", "ownsandbox", "reports", "script", "walkthrough"}
	// testOnly holds the packages that only tests import.
	testOnly = []string{"internal/apptest"}
)

// TestLayout fails when a package under app/ imports what its room forbids, or is in no room.
func TestLayout(t *testing.T) {
	dirs := packageDirs(t)
	listed := slices.Concat([]string{""}, pure, shared, features, testOnly)
	for _, d := range dirs {
		if !slices.Contains(listed, d) {
			t.Errorf("app/%s is in no room: list it in layout_test.go (pure, shared, features or testOnly)", d)
		}
	}
	for _, d := range listed {
		if !slices.Contains(dirs, d) {
			t.Errorf("layout_test.go lists app/%s, which has no Go files", d)
		}
	}
	for _, d := range dirs {
		imports, testImports := appImports(t, d)
		for _, imp := range imports {
			if why := forbidden(d, imp, false); why != "" {
				t.Errorf("%s imports %s: %s", name(d), name(imp), why)
			}
		}
		for _, imp := range testImports {
			if why := forbidden(d, imp, true); why != "" {
				t.Errorf("%s's tests import %s: %s", name(d), name(imp), why)
			}
		}
	}
}

// forbidden says why package from (a path under app/, "" for app itself) may not import to,
// or "" when it may; test is true for an import of its tests only.
func forbidden(from, to string, test bool) string {
	switch {
	case slices.Contains(testOnly, to) && !test:
		return "only tests may import it"
	case slices.Contains(testOnly, to):
		return ""
	case to == "":
		return "nothing imports the shell"
	case from == "":
		return "" // the shell imports every room
	case slices.Contains(pure, from) && !slices.Contains(pure, to):
		return "a pure package imports only pure packages"
	case slices.Contains(pure, to):
		return ""
	case slices.Contains(features, from) && slices.Contains(features, to):
		return "a feature never imports another feature: share through app/ui or app/op"
	case slices.Contains(shared, from) && slices.Contains(features, to):
		return "shared code never imports a feature: the feature registers with it instead"
	case slices.Contains(shared, from) && slices.Index(shared, to) >= slices.Index(shared, from):
		return "a shared package imports only the shared packages before it (" + strings.Join(shared, " < ") + ")"
	}
	return ""
}

// TestLayoutRules checks the rules TestLayout applies, on imports the tree does not have.
func TestLayoutRules(t *testing.T) {
	tests := []struct {
		from, to string
		test     bool
		allowed  bool
	}{
		{"chat", "walkthrough", false, false},
		{"walkthrough", "chat", true, false},
		{"op", "chat", false, false},
		{"ui", "op", false, false},
		{"op", "chatstream", false, false},
		{"op", "", false, false},
		{"history", "ui", false, false},
		{"request", "op", true, false},
		{"chat", "internal/apptest", false, false},
		{"chat", "internal/apptest", true, true},
		{"chat", "chatstream", false, true},
		{"chatstream", "op", false, true},
		{"op", "ui", false, true},
		{"walkthrough", "history", false, true},
		{"history", "permalink", false, true},
		{"", "walkthrough", false, true},
	}
	for _, tt := range tests {
		why := forbidden(tt.from, tt.to, tt.test)
		if got := why == ""; got != tt.allowed {
			t.Errorf("%s imports %s (test %v): got allowed %v (%q); want %v", name(tt.from), name(tt.to), tt.test, got, why, tt.allowed)
		}
	}
}

// name is how a message names a package under app/.
func name(d string) string {
	if d == "" {
		return "app"
	}
	return "app/" + d
}

// packageDirs lists the directories under app/ that hold Go files, relative to app/ ("" for
// app itself), skipping testdata.
func packageDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && e.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !e.IsDir() && strings.HasSuffix(path, ".go") {
			d := filepath.ToSlash(filepath.Dir(path))
			if d == "." {
				d = ""
			}
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking app/: %v", err)
	}
	sort.Strings(dirs)
	return dirs
}

// appImports returns the packages under app/ that the package in d imports, and those only
// its tests import, in the browser's build (js/wasm) and in the server's.
func appImports(t *testing.T, d string) (imports, testImports []string) {
	t.Helper()
	wasm := build.Default
	wasm.GOOS, wasm.GOARCH = "js", "wasm"
	for _, ctx := range []build.Context{build.Default, wasm} {
		p, err := ctx.ImportDir(filepath.Join(".", d), 0)
		if err != nil {
			if _, none := err.(*build.NoGoError); none {
				continue
			}
			t.Fatalf("reading app/%s: %v", d, err)
		}
		for _, imp := range p.Imports {
			if rel, ok := underApp(imp); ok && !slices.Contains(imports, rel) {
				imports = append(imports, rel)
			}
		}
		for _, imp := range slices.Concat(p.TestImports, p.XTestImports) {
			if rel, ok := underApp(imp); ok && rel != d && !slices.Contains(testImports, rel) {
				testImports = append(testImports, rel)
			}
		}
	}
	return imports, testImports
}

// underApp returns an import path's place under app/ ("" for app itself).
func underApp(path string) (string, bool) {
	if path == "loupe/app" {
		return "", true
	}
	rel, ok := strings.CutPrefix(path, "loupe/app/")
	return rel, ok
}
