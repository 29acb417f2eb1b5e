package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPartHeaders adds the OpenAPI specification's encoding example (testdata/spec-encoding.yaml:
// profileImage's part documents X-Rate-Limit-Limit) as an API of its own against a recording
// upstream. The form shows the header's input under the part, with its description; what is
// typed there is in the preview, the curl snippet and the link, the upstream receives it in the
// part's headers byte for byte, and the link reopens the form with it.
func TestPartHeaders(t *testing.T) {
	serialCatalog(t)
	upURL, got := recordingUpstream(t, `{"id":"p1"}`)
	base := startWithAPIs(t, `
apis:
  spec:
    openapi: testdata/spec-encoding.yaml
    base_url: `+upURL+`
`)
	ctx := newBrowser(t)
	tctx := within(t, ctx, 90*time.Second)
	openPage(t, ctx, base+"/spec/createProfile")

	const input = "f-part-profileImage-X-Rate-Limit-Limit"
	shown, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => {
		const f = document.querySelector('[data-param="body:profileImage"] .part-headers');
		return f && document.getElementById("`+input+`") ? f.textContent : null; })()`))
	if err != nil {
		t.Fatalf("no input for the part's header under profileImage: %v", err)
	}
	for _, want := range []string{"Headers of the profileImage part", "X-Rate-Limit-Limit", "integer", "The number of allowed requests in the current period"} {
		if !bytes.Contains([]byte(shown), []byte(want)) {
			t.Errorf("the part's headers show %q; want %q in it", shown, want)
		}
	}
	path := filepath.Join(t.TempDir(), "me.png")
	if err := os.WriteFile(path, []byte("\x89PNG me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.SetUploadFiles(chromedp.ID("body-f-profileImage"), []string{path})); err != nil {
		t.Fatal(err)
	}
	setByID(t, tctx, input, "100")
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(p => p && p.textContent.includes("Content-Type: image/png\nX-Rate-Limit-Limit: 100\n") || null)(document.querySelector("#preview .body-preview"))`)); err != nil {
		p, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.querySelector("#preview .body-preview").textContent`))
		t.Fatalf("the preview does not show the part's header: %v\n%s", err, p)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(() => { const c = document.getElementById("curl");
		return c && c.textContent.includes('profileImage=@me.png;type=image/png;headers="X-Rate-Limit-Limit: 100"') || null; })()`)); err != nil {
		c, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.getElementById("curl").textContent`))
		t.Errorf("the curl snippet does not send the part's header: %v\n%s", err, c)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
		t.Fatal(err)
	}
	r := <-got
	parts := r.Parts(t)
	if len(parts) != 1 || parts[0].Name != "profileImage" || parts[0].Header.Get("X-Rate-Limit-Limit") != "100" {
		t.Errorf("the upstream got the parts %+v; want profileImage with X-Rate-Limit-Limit: 100", parts)
	}
	want := "Content-Disposition: form-data; name=\"profileImage\"; filename=\"me.png\"\r\nContent-Type: image/png\r\nX-Rate-Limit-Limit: 100\r\n\r\n\x89PNG me\r\n"
	if !bytes.Contains(r.Body, []byte(want)) {
		t.Errorf("the upstream got the body\n%q\nwant it to hold\n%q", r.Body, want)
	}

	hash, err := chromedp.Run(tctx, chromedp.Poll[string](`location.hash.includes("part:profileImage:X-Rate-Limit-Limit=100") ? location.hash : null`, chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		h, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`location.hash`))
		t.Fatalf("the link %q does not hold the part's header: %v", h, err)
	}
	openPage(t, ctx, base+"/spec/createProfile"+hash)
	if v, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => { const i = document.getElementById("`+input+`"); return i && i.value ? i.value : null; })()`)); err != nil || v != "100" {
		t.Errorf("the link %s reopened the part's header as %q (%v); want 100", hash, v, err)
	}
}
