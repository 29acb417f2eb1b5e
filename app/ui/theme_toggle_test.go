package ui

import (
	"os"
	"strings"
	"testing"
)

// TestTheThemeScriptReadsTheToggleKey checks that web/theme.js, which applies the saved theme
// before the wasm runs, reads the key the toggle writes and sets the attribute it sets.
func TestTheThemeScriptReadsTheToggleKey(t *testing.T) {
	js, err := os.ReadFile("../../web/theme.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`getItem("` + themeKey + `")`, `setAttribute("data-theme", theme)`, `"light"`, `"dark"`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("web/theme.js lacks %s; it must apply what the theme toggle stores", want)
		}
	}
}
