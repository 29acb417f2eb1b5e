package e2e

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"loupe/server"
	"loupe/server/sandbox/script"
)

// sendFrom opens an operation with its form filled from a permalink fragment, sends it, and
// returns the response panel's text once the status is shown.
func sendFrom(t *testing.T, ctx context.Context, page, want string) string {
	t.Helper()
	openPage(t, ctx, page)
	tctx := within(t, ctx, 30*time.Second)
	// The page of this operation, not the one before it, holds the Send pressed.
	op := strings.TrimPrefix(strings.SplitN(page, "#", 2)[0], originOf(page))
	if err := chromedp.Do(tctx, chromedp.WaitVisible(`article.op-page[data-op="`+strings.TrimPrefix(op, "/")+`"] #send`),
		chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	text, err := chromedp.Run(tctx, chromedp.Poll[string](`(s => s && s.textContent.includes(`+jsString(want)+`) ? document.getElementById("response").innerText : null)(document.getElementById("response-status"))`,
		chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		got, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Text(chromedp.CSS("main")))
		t.Fatalf("%s: no answer %s: %v\npage:\n%s", page, want, err, got)
	}
	return text
}

// deploymentIDPattern finds a new deployment's id in an answer.
var deploymentIDPattern = regexp.MustCompile(`"deploymentId":\s*"(AKfyc[\w-]+)"`)

// TestThreeRequestsRecordedAsAWalkthroughRunBack sends three requests as a user does (create a
// deployment, read it, delete it), picks them in the history and saves them as a walkthrough:
// the document carries the deployment's id from the first answer into the later requests as
// $steps.s1.outputs.deploymentId, with the statuses seen as criteria. It is downloaded, run
// back in the browser (every step passing), run with `loupe walk FILE`'s code, and a copy
// with a mistake, opened as a file, shows the problem at its line and sends nothing.
func TestThreeRequestsRecordedAsAWalkthroughRunBack(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	project := "path:scriptId=" + script.SeedScriptID

	created := sendFrom(t, ctx, base+"/script/projects.deployments.create#v1&"+project+"&body="+
		url.QueryEscape(`{"versionNumber":3,"description":"recorded"}`), "200")
	m := deploymentIDPattern.FindStringSubmatch(created)
	if m == nil {
		t.Fatalf("the create answer holds no deploymentId:\n%s", created)
	}
	id := m[1]
	sendFrom(t, ctx, base+"/script/projects.deployments.get#v1&"+project+"&path:deploymentId="+id, "200")
	sendFrom(t, ctx, base+"/script/projects.deployments.delete#v1&"+project+"&path:deploymentId="+id, "200")

	// Pick the three in the history and save them.
	openPage(t, ctx, base+"/history")
	tctx := within(t, ctx, 60*time.Second)
	picked, err := chromedp.Run(tctx, chromedp.Poll[int](`(() => {
		const boxes = document.querySelectorAll("#history-list .history-pick");
		if (boxes.length < 3) return null;
		boxes.forEach(b => { if (!b.checked) b.click(); });
		return boxes.length; })()`, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil || picked != 3 {
		t.Fatalf("the history offers %d requests to pick (%v); want the 3 sent", picked, err)
	}
	typeInto(t, ctx, "history-record-title", "Recorded deployment")
	if _, err := chromedp.Run(tctx, clickWhenEnabled("history-record-save")); err != nil {
		t.Fatal(err)
	}
	doc, err := chromedp.Run(tctx, chromedp.Poll[string](`(d => d ? d.textContent : (e => e ? "error: " + e.textContent : null)(document.getElementById("history-record-error")))(document.getElementById("history-record-doc"))`,
		chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil || strings.HasPrefix(doc, "error: ") {
		t.Fatalf("Save as walkthrough: got %q (%v); want the document", doc, err)
	}
	for _, want := range []string{
		"arazzo: 1.0.1", "title: Recorded deployment",
		"url: " + base + "/openapi/script.yaml",
		"~1deployments/post", "~1deployments~1{deploymentId}/get", "~1deployments~1{deploymentId}/delete",
		"deploymentId: $response.body#/deploymentId",
		"value: $steps.s1.outputs.deploymentId",
		"condition: $statusCode == 200",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the recorded document lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, id) {
		t.Errorf("the recorded document holds the deployment id %s as a literal; want it carried from step s1:\n%s", id, doc)
	}

	// Download it as a user does, with a click: the file holds exactly the document shown.
	dir := t.TempDir()
	if _, err := chromedp.Call(tctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, BrowserContextID: browserContextID(ctx)}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("history-record-download"))); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "recorded-deployment.arazzo.yaml")
	var downloaded []byte
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if downloaded, err = os.ReadFile(file); err == nil && len(downloaded) > 0 {
			break
		}
	}
	if string(downloaded) != doc {
		names, _ := os.ReadDir(dir)
		t.Fatalf("the download: got %q in %v (%v); want recorded-deployment.arazzo.yaml holding the document shown", downloaded, names, err)
	}

	// Run it back in the browser: every step passes, the id carried again.
	if _, err := chromedp.Run(tctx, clickWhenEnabled("history-record-run")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, clickWhenEnabled("walk-run-all")); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"s1", "s2", "s3"} {
		waitStep(t, ctx, s, "passed")
	}
	status, _ := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Text(chromedp.ID("walk-status")))
	if status != "Done: every step passed." {
		t.Errorf("got status %q; want the recorded walkthrough done", status)
	}

	// Run it with loupe walk FILE's code.
	rep, err := server.Walk(context.Background(), nil, file, "", nil)
	if err != nil {
		t.Fatalf("loupe walk %s: %v", file, err)
	}
	var out strings.Builder
	rep.Write(&out)
	if !rep.OK || !strings.Contains(out.String(), "PASS: 3 steps, 3 criteria held") {
		t.Errorf("loupe walk %s:\n%s\nwant PASS: 3 steps, 3 criteria held", file, out.String())
	}

	// A copy with a mistake, opened as a file: the problem at its line, nothing sent.
	broken := strings.Replace(doc, "~1deployments~1{deploymentId}/get", "~1deployments~1{deploymentId}/patch", 1)
	line := 1 + strings.Count(broken[:strings.Index(broken, "~1deployments~1{deploymentId}/patch")], "\n")
	brokenFile := filepath.Join(t.TempDir(), "broken.arazzo.yaml")
	if err := os.WriteFile(brokenFile, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	openPage(t, ctx, base+"/walkthroughs")
	spyFetch(t, ctx)
	if err := chromedp.Do(tctx, chromedp.SetUploadFiles(chromedp.ID("walk-file-input"), []string{brokenFile})); err != nil {
		t.Fatal(err)
	}
	problems, err := chromedp.Run(tctx, chromedp.Poll[string](`(p => p ? p.innerText : null)(document.getElementById("walk-problems"))`,
		chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		got, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Text(chromedp.CSS("main")))
		t.Fatalf("the broken file shows no problems: %v\npage:\n%s", err, got)
	}
	for _, want := range []string{"1 problem in broken.arazzo.yaml", "Nothing was sent", "line " + strconv.Itoa(line), "patch"} {
		if !strings.Contains(problems, want) {
			t.Errorf("the problems shown:\n%s\nwant %q", problems, want)
		}
	}
	marked, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`(e => e ? e.textContent : "")(document.querySelector("#walk-problems .walk-line-at"))`))
	if !strings.Contains(marked, "~1deployments~1{deploymentId}/patch") {
		t.Errorf("the line marked in the excerpt is %q; want the line of the mistake", marked)
	}
	if sent, _ := chromedp.Run(tctx, chromedp.Evaluate[int](`window.sent.length`)); sent != 0 {
		t.Errorf("a broken walkthrough sent %d requests; want none", sent)
	}
}

// originOf is the scheme and host of page.
func originOf(page string) string {
	u, err := url.Parse(page)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
