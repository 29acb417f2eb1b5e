package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
	"loupe/server/config"
)

// TestAnAPIOfYourOwn adds two third-party documents by configuration, notes pointed at a stub
// upstream and pets at nothing with its sandbox turned off: the page of pets says what to set,
// and the form of notes sends through the proxy with the credential its document's
// bearer scheme says, which the browser never sees.
func TestAnAPIOfYourOwn(t *testing.T) {
	serialCatalog(t)
	auth := make(chan string, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case auth <- r.Method + " " + r.URL.Path + "?" + r.URL.RawQuery + " " + r.Header.Get("Authorization"):
		default:
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"id":7,"text":"from the stub"}]`)
	}))
	defer up.Close()
	base := startServer(t, func(c *server.Config) {
		settings, err := config.Parse([]byte(`
apis:
  pets:
    openapi: ../server/testdata/petstore-3.0.yaml
    sandbox: false
  notes:
    openapi: ../server/testdata/notes-3.1.json
    base_url: `+up.URL+`/api
    credential: {value: note-token}
`), "loupe.yaml", func(string) (string, bool) { return "", false })
		if err != nil {
			t.Fatal(err)
		}
		c.Settings = settings
	})
	ctx := newBrowser(t)
	tctx := within(t, ctx, 60*time.Second)

	openPage(t, ctx, base+"/pets")
	text, err := chromedp.Run(tctx, chromedp.Poll[string](`(e => e && e.textContent)(document.querySelector(".own-api"))`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"apis.pets.sandbox: false", "apis.pets.base_url", "LOUPE_PETS_URL", "https://petstore.example.com/v1"} {
		if !strings.Contains(text, want) {
			t.Errorf("the pets page says %q; want it to name %q", text, want)
		}
	}

	openPage(t, ctx, base+"/notes/listNotes")
	setInput(t, tctx, "query:q", "milk")
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
		t.Fatal(err)
	}
	if got, want := <-auth, "GET /api/notes?q=milk Bearer note-token"; got != want {
		t.Errorf("the upstream got %q; want %q", got, want)
	}
	page, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.body.innerText`))
	if !strings.Contains(page, "from the stub") || strings.Contains(page, "note-token") {
		t.Errorf("the page shows the stub's answer %v and the credential %v; want the answer and not the credential",
			strings.Contains(page, "from the stub"), strings.Contains(page, "note-token"))
	}
}
