package ui

import (
	"encoding/json"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// WalkFilePath is the page that runs a walkthrough file opened in the browser (one written by
// hand, shared, or recorded from the history) rather than one of the catalog.
const WalkFilePath = "/walkthroughs"

// walkFileKey is the sessionStorage key of the file that page runs.
const walkFileKey = "loupe.walkthrough.file"

// WalkFile is an Arazzo document opened in the browser. It is kept in the tab's
// sessionStorage, so that the page finds it again after a reload and the history's recorder
// can hand it over; it never leaves the tab but to be checked and run.
type WalkFile struct {
	// Name is its file name ("recorded.arazzo.yaml"), which gives the walkthrough's id.
	Name string `json:"name"`
	// Text is the document, YAML or JSON.
	Text string `json:"text"`
}

// SaveWalkFile keeps f as the file the walkthrough file page runs; false when the storage
// refused it (full, or turned off).
func SaveWalkFile(f WalkFile) (ok bool) {
	if !app.IsClient {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	b, _ := json.Marshal(f)
	app.Window().Get("sessionStorage").Call("setItem", walkFileKey, string(b))
	return true
}

// LoadWalkFile returns the file SaveWalkFile kept, and whether there is one.
func LoadWalkFile() (WalkFile, bool) {
	if !app.IsClient {
		return WalkFile{}, false
	}
	v := app.Window().Get("sessionStorage").Call("getItem", walkFileKey)
	if !v.Truthy() {
		return WalkFile{}, false
	}
	var f WalkFile
	if json.Unmarshal([]byte(v.String()), &f) != nil || f.Text == "" {
		return WalkFile{}, false
	}
	return f, true
}

// Origin is the page's origin and site base ("http://127.0.0.1:8080", "https://x.github.io/repo"),
// where the server (or the static site) serves /openapi/<slug>.yaml; "" on the server.
func Origin() string {
	if !app.IsClient {
		return ""
	}
	return app.Window().Get("location").Get("origin").String() + BasePath()
}
