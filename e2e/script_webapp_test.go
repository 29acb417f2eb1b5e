package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"loupe/server/sandbox"
	"loupe/server/sandbox/script"
)

// webAppManifest makes the project a web app.
const webAppManifest = `{"timeZone":"Europe/London","runtimeVersion":"V8","webapp":{"access":"ANYONE_ANONYMOUS","executeAs":"USER_DEPLOYING"}}`

// webAppCode serves a page from a template (its script runs in the browser and writes what it
// can see of its origin), or JSON.
const webAppCode = `function doGet(e) {
  if (e.parameter.format === 'json') {
    return ContentService.createTextOutput(JSON.stringify({visits: count()})).setMimeType(ContentService.MimeType.JSON);
  }
  var t = HtmlService.createTemplateFromFile('Index');
  t.name = e.parameter.name || 'world';
  t.visits = count();
  return t.evaluate().setTitle('Visitor book');
}
function count() {
  var p = PropertiesService.getScriptProperties();
  var n = Number(p.getProperty('visits') || 0) + 1;
  p.setProperty('visits', n);
  return n;
}
`

// webAppIndex is the page: server-side scriptlets, then a script of the page's own.
const webAppIndex = `<!doctype html>
<html><body>
<h1 id="hello">Hello, <?= name ?>! Visit <?= visits ?>.</h1>
<p id="sum"></p><p id="origin"></p><p id="cookie"></p>
<script>
document.getElementById('sum').textContent = 'script ran: ' + (2 + 2);
document.getElementById('origin').textContent = 'origin ' + self.origin;
try { document.getElementById('cookie').textContent = 'cookie ' + document.cookie; }
catch (e) { document.getElementById('cookie').textContent = 'cookie refused: ' + e.name; }
</script>
</body></html>`

// TestWebAppInChromium deploys a web app through the script API as a visitor, opens the URL
// the deployment's entry point gives in Chromium, and sees its HTML rendered with its script
// running in a frame with an opaque origin (no cookies, not Loupe's origin); its JSON is served
// as JSON; the visits it counts are kept in the visitor's state.
//
// The frame is read last: reading it attaches to its target, which ends the page's.
func TestWebAppInChromium(t *testing.T) {
	t.Parallel()
	began := time.Now().UTC().Add(-time.Second).Format(time.RFC3339)
	base := startServer(t)
	ctx := newBrowser(t)
	cookie := visitorCookie(t, ctx, base)
	call := func(method, path string, body any) map[string]any {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, base+"/sandbox/script"+path, strings.NewReader(string(b)))
		req.Header.Set("Authorization", "Bearer "+sandbox.DefaultKey)
		req.Header.Set("Content-Type", "application/json")
		req.AddCookie(cookie)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer res.Body.Close()
		var v map[string]any
		raw, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || json.Unmarshal(raw, &v) != nil {
			t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, raw)
		}
		return v
	}
	p := "/v1/projects/" + script.SeedScriptID
	call("PUT", p+"/content", map[string]any{"files": []map[string]string{
		{"name": "appsscript", "type": "JSON", "source": webAppManifest},
		{"name": "Code", "type": "SERVER_JS", "source": webAppCode},
		{"name": "Index", "type": "HTML", "source": webAppIndex},
	}})
	v := call("POST", p+"/versions", map[string]string{"description": "web app"})
	d := call("POST", p+"/deployments", map[string]any{"versionNumber": v["versionNumber"]})
	eps, _ := d["entryPoints"].([]any)
	if len(eps) == 0 {
		t.Fatalf("the deployment has no entry point: %v", d)
	}
	url, _ := eps[0].(map[string]any)["webApp"].(map[string]any)["url"].(string)
	if !strings.HasPrefix(url, base+"/sandbox/script/macros/s/") || !strings.HasSuffix(url, "/exec") {
		t.Fatalf("the web app's URL: got %q; want the sandbox's own under %s", url, base)
	}

	tctx := within(t, ctx, 60*time.Second)
	if err := chromedp.Do(tctx, chromedp.Navigate(url+"?format=json")); err != nil {
		t.Fatalf("opening the JSON: %v", err)
	}
	if body, err := chromedp.Run(tctx, chromedp.Text(chromedp.CSS("body"))); err != nil || strings.TrimSpace(body) != `{"visits":1}` {
		t.Errorf("the JSON: got %q (%v); want {\"visits\":1}", body, err)
	}
	if err := chromedp.Do(tctx, chromedp.Navigate(url+"?name=Ada"), chromedp.WaitReady(chromedp.CSS("iframe#sandboxFrame"))); err != nil {
		t.Fatalf("opening the web app: %v", err)
	}
	if title, err := chromedp.Run(tctx, chromedp.Title()); err != nil || title != "Visitor book" {
		t.Errorf("the page's title: got %q (%v); want Visitor book", title, err)
	}
	texts := frameTexts(t, tctx, "hello", "sum", "origin", "cookie")
	want := map[string]string{"hello": "Hello, Ada! Visit 2.", "sum": "script ran: 4", "origin": "origin null", "cookie": "cookie refused: SecurityError"}
	for id, w := range want {
		if texts[id] != w {
			t.Errorf("#%s in the app's frame: got %q; want %q", id, texts[id], w)
		}
	}
	res := call("GET", fmt.Sprintf("/v1/processes:listScriptProcesses?scriptId=%s&scriptProcessFilter.types=WEBAPP&scriptProcessFilter.startTime=%s",
		script.SeedScriptID, began), nil)
	if ps, _ := res["processes"].([]any); len(ps) != 2 {
		t.Errorf("the web app's runs in the visitor's processes: got %v; want 2", res)
	}
}

// frameTexts reads the text of the elements with the ids in the page's web app frame: Chromium
// runs a sandboxed frame in a process of its own, so the frame is read from its own target.
func frameTexts(t *testing.T, ctx context.Context, ids ...string) map[string]string {
	t.Helper()
	var frame target.ID
	deadline := time.Now().Add(20 * time.Second)
	for frame == "" {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			t.Fatalf("listing the browser's targets: %v", err)
		}
		for _, info := range infos {
			if info.Type == "iframe" && strings.Contains(info.URL, "/sandbox/script/macros/frames/") {
				frame = info.TargetID
			}
		}
		if frame == "" && time.Now().After(deadline) {
			t.Fatalf("the web app's frame never appeared as a target: %v", infos)
		}
		time.Sleep(50 * time.Millisecond)
	}
	fctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(frame))
	defer cancel()
	out := map[string]string{}
	for _, id := range ids {
		s, err := chromedp.Run(within(t, fctx, 20*time.Second), chromedp.Poll[string](
			`(e => e && e.textContent ? e.textContent : null)(document.getElementById(`+jsString(id)+`))`))
		if err != nil {
			t.Fatalf("reading #%s in the app's frame: %v", id, err)
		}
		out[id] = s
	}
	return out
}
