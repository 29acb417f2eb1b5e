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

	"github.com/chromedp/chromedp"

	"loupe/app/catalog"
)

// fetchCatalog reads /catalog.json from the server under test.
func fetchCatalog(t *testing.T, base string) *catalog.Catalog {
	t.Helper()
	res, err := http.Get(base + "/catalog.json")
	if err != nil {
		t.Fatalf("GET /catalog.json: %v", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var cat catalog.Catalog
	if err := json.Unmarshal(b, &cat); err != nil {
		t.Fatalf("decoding /catalog.json: %v", err)
	}
	return &cat
}

// field is the CSS selector of a parameter's field wrapper.
func field(key string) string { return fmt.Sprintf(`.field[data-param=%q]`, key) }

// jsString quotes s for a JavaScript expression.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// setInput types v into the first input of a field, replacing what is there, the way a user's
// keystrokes do (an input event per change).
func setInput(t *testing.T, ctx context.Context, key, v string) {
	t.Helper()
	expr := fmt.Sprintf(`(() => {
		const el = document.querySelector(%s + " input, " + %s + " select");
		if (!el) return false;
		el.focus();
		el.value = %s;
		el.dispatchEvent(new Event(el.tagName === "SELECT" ? "change" : "input", {bubbles: true}));
		return true;
	})()`, jsString(field(key)), jsString(field(key)), jsString(v))
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
	if err != nil || !ok {
		t.Fatalf("setting %s to %q: found %v, %v", key, v, ok, err)
	}
}

// inputValues returns the values of a field's text inputs and selects, in order.
func inputValues(t *testing.T, ctx context.Context, key string) []string {
	t.Helper()
	expr := fmt.Sprintf(`Array.from(document.querySelectorAll(%s + " input:not([type=checkbox]), " + %s + " select")).map(e => e.value)`,
		jsString(field(key)), jsString(field(key)))
	v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](expr))
	if err != nil {
		t.Fatalf("reading %s: %v", key, err)
	}
	return v
}

// proxiedRequests counts the requests the page made to /proxy/.
func proxiedRequests(t *testing.T, ctx context.Context) int {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](
		`performance.getEntriesByType("resource").filter(e => new URL(e.name).pathname.startsWith("/proxy/")).length`))
	if err != nil {
		t.Fatalf("counting requests: %v", err)
	}
	return n
}

func TestEveryOperationPageHasAFieldForEveryParameter(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	cat := fetchCatalog(t, base)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/")
	for _, a := range cat.APIs {
		for _, op := range a.Operations {
			t.Run(a.Slug+"/"+op.ID, func(t *testing.T) {
				tctx := within(t, ctx, 20*time.Second)
				target := a.Slug + "/" + op.ID
				// Navigate inside the app, as a click in the sidebar does.
				if err := chromedp.Do(tctx,
					chromedp.Click(chromedp.CSS(fmt.Sprintf(`a.op-link[data-op=%q]`, target))),
					chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`article[data-op=%q]`, target))),
				); err != nil {
					t.Fatalf("opening %s from the sidebar: %v", target, err)
				}
				hasForm, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`!!document.getElementById("op-form")`))
				if err != nil {
					t.Fatal(err)
				}
				if !hasForm {
					if op.Viewer == catalog.ViewerChat {
						t.Logf("%s shows its own view instead of the form", target)
						return
					}
					t.Fatalf("%s has no #op-form", target)
				}
				keys := []string{}
				for _, p := range op.Parameters {
					keys = append(keys, p.In+":"+p.Name)
				}
				kb, _ := json.Marshal(keys)
				missing, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](fmt.Sprintf(`%s.filter(k => {
					const f = document.querySelector('.field[data-param="' + k + '"]');
					return !f || !f.querySelector("input, select, textarea, .held-note");
				})`, kb)))
				if err != nil {
					t.Fatal(err)
				}
				if len(missing) > 0 {
					t.Errorf("no field for %v", missing)
				}
				if op.Body != nil {
					if ok, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`!!document.getElementById("body-editor")`)); !ok {
						t.Errorf("no #body-editor for the request body")
					}
				}
				if ok, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`!!document.getElementById("preview") && !!document.getElementById("curl")`)); !ok {
					t.Errorf("no request preview")
				}
			})
		}
	}
}

func TestEntitySearchShowsTheResponse(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search")
	tctx := within(t, ctx, 30*time.Second)
	setInput(t, tctx, "query:query", "Paris")
	if err := chromedp.Do(tctx,
		chromedp.Click(chromedp.ID("send")),
		chromedp.WaitVisible(chromedp.ID("response-status")),
	); err != nil {
		t.Fatalf("sending: %v", err)
	}
	status, _ := chromedp.Run(tctx, chromedp.Text(chromedp.ID("response-status")))
	if !strings.HasPrefix(status, "200") {
		body, _ := chromedp.Run(tctx, chromedp.TextContent(chromedp.ID("response")))
		t.Fatalf("status = %q, want 200; panel: %s", status, body)
	}
	for _, id := range []string{"response-time", "response-size"} {
		if v, _ := chromedp.Run(tctx, chromedp.Text(chromedp.ID(id))); v == "" {
			t.Errorf("#%s is empty", id)
		}
	}
	// The JSON-LD viewer's tab comes first when it is registered; it shows entity cards.
	viewer, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`!!document.getElementById("tab-view")`))
	if viewer {
		if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.querySelectorAll(".entity-card").length > 0`,
			chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Errorf("no .entity-card in the Entities tab: %v", err)
		}
		if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("tab-json"))); err != nil {
			t.Fatalf("opening the JSON tab: %v", err)
		}
	} else {
		t.Log("no body viewer is registered for jsonld: checking the JSON tree only")
	}
	tree, err := chromedp.Run(tctx, chromedp.TextContent(chromedp.ID("json-tree")))
	if err != nil || !strings.Contains(tree, "Paris") {
		t.Errorf("#json-tree does not show the result (%v): %.200s", err, tree)
	}
	link, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`location.hash`))
	if !strings.Contains(link, "query=Paris") {
		t.Errorf("the fragment after sending is %q, want the form state", link)
	}
}

func TestAnOutOfRangeLimitIsReportedAndNothingIsSent(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search")
	tctx := within(t, ctx, 45*time.Second)
	setInput(t, tctx, "query:query", "Paris")
	setInput(t, tctx, "query:limit", "501")
	before := proxiedRequests(t, tctx)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	msg, err := chromedp.Run(tctx, chromedp.Poll[string](
		`(document.querySelector('.field[data-param="query:limit"] .field-error') || {}).textContent || null`,
		chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil || !strings.Contains(msg, "at most 500") {
		t.Fatalf("limit error = %q (%v), want it to say at most 500", msg, err)
	}
	invalid, _ := chromedp.Run(tctx, chromedp.Evaluate[string](
		`document.querySelector('.field[data-param="query:limit"] input').getAttribute("aria-invalid")`))
	if invalid != "true" {
		t.Errorf("aria-invalid = %q, want true", invalid)
	}
	// Ctrl+Enter must not send either.
	if err := chromedp.Do(tctx, chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if n := proxiedRequests(t, tctx); n != before {
		t.Errorf("%d requests were proxied while the form was invalid", n-before)
	}
	if present, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`!!document.getElementById("response-status")`)); present {
		t.Errorf("the response panel shows a status although nothing was sent")
	}
	// Fixing the value sends. The error line under the field goes away first, which moves
	// the Send button up: wait for that re-render, or the click lands where it used to be.
	setInput(t, tctx, "query:limit", "5")
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](
		`document.querySelector('.field[data-param="query:limit"] .field-error').textContent === "" || null`,
		chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("the limit error stays after fixing the value: %v", err)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
		dctx := within(t, ctx, 5*time.Second)
		state, _ := chromedp.Run(dctx, chromedp.Evaluate[string](`JSON.stringify({hash: location.hash,
			status: (document.querySelector(".form-status") || {}).textContent,
			limit: document.querySelector('.field[data-param="query:limit"] input').value,
			response: document.getElementById("response").textContent,
			focus: document.activeElement.id})`))
		t.Fatalf("sending after the fix: %v; page: %s; proxied %d", err, state, proxiedRequests(t, dctx)-before)
	}
	if n := proxiedRequests(t, tctx); n != before+1 {
		t.Errorf("%d requests proxied after the fix, want 1", n-before)
	}
}

func TestACopiedLinkRestoresTheForm(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search")
	tctx := within(t, ctx, 40*time.Second)
	setInput(t, tctx, "query:query", "Ada & Grace = 100%")
	setInput(t, tctx, "query:limit", "7")
	setInput(t, tctx, "query:types", "Person")
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS(field("query:types")+" .list-foot button"))); err != nil {
		t.Fatalf("adding a value: %v", err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelectorAll(%s).length === 2`,
		jsString(field("query:types")+" input")))); err != nil {
		t.Fatalf("the second types input did not appear: %v", err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
		const el = document.querySelectorAll(%s)[1];
		el.value = "Place";
		el.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`, jsString(field("query:types")+" input")))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("copy-link")), chromedp.WaitVisible(chromedp.ID("permalink"))); err != nil {
		t.Fatalf("copying the link: %v", err)
	}
	link, err := chromedp.Run(tctx, chromedp.Value(chromedp.ID("permalink")))
	if err != nil || !strings.Contains(link, "#v1&") {
		t.Fatalf("link = %q (%v)", link, err)
	}
	if strings.Contains(link, "key=") {
		t.Errorf("the link holds a credential parameter: %s", link)
	}
	want := map[string][]string{
		"query:query": {"Ada & Grace = 100%"}, "query:limit": {"7"}, "query:types": {"Person", "Place"},
	}
	// A new tab of the same browser, as a colleague opening the link.
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	if err := chromedp.Do(tab); err != nil { // open the tab, not under a timeout (which would close it)
		t.Fatalf("opening a tab: %v", err)
	}
	openPage(t, tab, link)
	ttab := within(t, tab, 20*time.Second)
	for key, w := range want {
		got := inputValues(t, ttab, key)
		if strings.Join(got, "\n") != strings.Join(w, "\n") {
			t.Errorf("%s = %q, want %q", key, got, w)
		}
	}
	if present, _ := chromedp.Run(ttab, chromedp.Evaluate[bool](`!!document.getElementById("notice")`)); present {
		t.Errorf("a valid link shows a notice")
	}
	// Reload restores it too.
	if err := chromedp.Do(ttab, chromedp.Reload(), chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")), chromedp.WaitVisible(chromedp.ID("op-form"))); err != nil {
		t.Fatal(err)
	}
	if got := inputValues(t, ttab, "query:query"); len(got) != 1 || got[0] != want["query:query"][0] {
		t.Errorf("after reload query = %q", got)
	}
}

// TestALinkRestoresWhatItCanAndNamesTheRest: a link is never all or nothing. A value it
// cannot read, a stray %, another version of the format or a parameter the operation no longer
// has costs that part only: the rest is restored, and a notice names what was left out. A
// fragment that is no link at all leaves the defaults, and says so.
func TestALinkRestoresWhatItCanAndNamesTheRest(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	tests := []struct {
		frag, query string   // the fragment, and the query field it restores
		notice      []string // what the notice says
	}{
		{"#%E0%A4%A&&&", "", []string{"could not be read", "defaults"}},
		{"#v9&query=x", "x", []string{"another version of Loupe (v9", "everything else"}},
		{"#v1&nosuchparam=1&query=paris", "paris", []string{"this operation has no nosuchparam"}},
		{"#v1&query=50%&limit=3", "50%", []string{"stray %"}},
		{"#v1&query=rome&types=%zz", "rome", []string{"stray %"}},
	}
	for _, tt := range tests {
		t.Run(tt.frag, func(t *testing.T) {
			openPage(t, ctx, base+"/entities/entities.search"+tt.frag)
			tctx := within(t, ctx, 20*time.Second)
			if err := chromedp.Do(tctx, chromedp.WaitVisible(chromedp.ID("notice"))); err != nil {
				t.Fatalf("no #notice: %v", err)
			}
			text, _ := chromedp.Run(tctx, chromedp.Text(chromedp.ID("notice")))
			for _, want := range tt.notice {
				if !strings.Contains(text, want) {
					t.Errorf("notice = %q; want it to say %q", text, want)
				}
			}
			if got := inputValues(t, tctx, "query:query"); len(got) != 1 || got[0] != tt.query {
				t.Errorf("query = %q, want %q", got, tt.query)
			}
			if ok, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`!!document.getElementById("op-form") && !!document.getElementById("side")`)); !ok {
				t.Errorf("the page is broken")
			}
		})
	}
}

func TestKeyboardShortcuts(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search")
	tctx := within(t, ctx, 30*time.Second)
	if err := chromedp.Do(tctx, chromedp.KeyEvent("/")); err != nil {
		t.Fatal(err)
	}
	if id, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.activeElement.id`)); id != "filter" {
		t.Errorf("after /, focus is on %q, want #filter", id)
	}
	if err := chromedp.Do(tctx, chromedp.KeyEvent("health")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](
		`[...document.querySelectorAll("#side a.op-link")].some(a => a.checkVisibility()) && !document.querySelector('#side a.op-link[data-op="entities/entities.search"]')?.checkVisibility()`,
		chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Errorf("the filter did not narrow the sidebar: %v", err)
	}
	// "/" typed in a field is text, not a shortcut.
	setInput(t, tctx, "query:query", "a")
	if err := chromedp.Do(tctx, chromedp.Focus(chromedp.CSS(field("query:query")+" input")), chromedp.KeyEvent("/b")); err != nil {
		t.Fatal(err)
	}
	if got := inputValues(t, tctx, "query:query"); len(got) != 1 || got[0] != "a/b" {
		t.Errorf("query = %q, want a/b", got)
	}
	if err := chromedp.Do(tctx, chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
		t.Errorf("Ctrl+Enter did not send: %v", err)
	}
}

func TestTheBodyEditorNamesTheWrongField(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/cluster/security.config_upgrade_perform")
	tctx := within(t, ctx, 30*time.Second)
	before := proxiedRequests(t, tctx)
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => {
		const el = document.getElementById("body-editor");
		el.value = '{"config": ["roles", "nope"]}';
		el.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	msg, err := chromedp.Run(tctx, chromedp.Poll[string](`document.getElementById("body-error").textContent || null`,
		chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil || !strings.Contains(msg, "config[1]: must be one of roles") {
		t.Fatalf("body error = %q (%v), want it to name config[1]", msg, err)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if n := proxiedRequests(t, tctx); n != before {
		t.Errorf("%d requests were proxied with an invalid body", n-before)
	}
	if id, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.activeElement.id`)); id != "body-editor" {
		t.Errorf("focus is on %q after a refused send, want the body editor", id)
	}
	// Broken JSON says where.
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => {
		const el = document.getElementById("body-editor");
		el.value = '{\n  "config": [\n    roles\n  ]\n}';
		el.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	msg, err = chromedp.Run(tctx, chromedp.Poll[string](`(t => t.includes("line") ? t : null)(document.getElementById("body-error").textContent)`,
		chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil || !strings.Contains(msg, "line 3") {
		t.Errorf("syntax error = %q (%v), want the line", msg, err)
	}
}

func TestALinkWithACredentialIgnoresIt(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search#v1&query=Paris&key=SECRET")
	tctx := within(t, ctx, 20*time.Second)
	if err := chromedp.Do(tctx, chromedp.WaitVisible(chromedp.ID("notice"))); err != nil {
		t.Fatalf("no #notice: %v", err)
	}
	if text, _ := chromedp.Run(tctx, chromedp.Text(chromedp.ID("notice"))); !strings.Contains(text, "credential") {
		t.Errorf("notice = %q", text)
	}
	if got := inputValues(t, tctx, "query:query"); len(got) != 1 || got[0] != "Paris" {
		t.Errorf("query = %q, want Paris", got)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("copy-link")), chromedp.WaitVisible(chromedp.ID("permalink"))); err != nil {
		t.Fatal(err)
	}
	if link, _ := chromedp.Run(tctx, chromedp.Value(chromedp.ID("permalink"))); strings.Contains(link, "SECRET") {
		t.Errorf("the shared link keeps the credential: %s", link)
	}
	if curl, _ := chromedp.Run(tctx, chromedp.TextContent(chromedp.ID("curl"))); strings.Contains(curl, "SECRET") {
		t.Errorf("the curl command holds the credential: %s", curl)
	}
}
