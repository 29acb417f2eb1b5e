package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/bcrypt"

	"loupe/app/catalog"
	"loupe/server"
	"loupe/server/config"
	"loupe/web"
)

// wireTap keeps a copy of everything the server sends the browser: status lines, headers
// (cookies included) and bodies, event streams too.
type wireTap struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	proxy []int    // statuses of /proxy/ answers
	calls []string // "status path" of /proxy/ answers
}

func (t *wireTap) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &tapWriter{ResponseWriter: w, tap: t, r: r}
		h.ServeHTTP(tw, r)
		tw.WriteHeader(http.StatusOK) // a handler that wrote nothing
	})
}

func (t *wireTap) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

// proxyPaths lists "status path" of the /proxy/<slug>/ answers so far.
func (t *wireTap) proxyPaths(slug string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, c := range t.calls {
		if strings.HasPrefix(c, "/proxy/"+slug+"/") || strings.Contains(c, " /proxy/"+slug+"/") {
			out = append(out, c)
		}
	}
	return out
}

func (t *wireTap) proxyStatuses() []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]int(nil), t.proxy...)
}

type tapWriter struct {
	http.ResponseWriter
	tap   *wireTap
	r     *http.Request
	wrote bool
}

func (w *tapWriter) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.wrote = true
	w.tap.mu.Lock()
	fmt.Fprintf(&w.tap.buf, "\n%d %s %s\n", code, w.r.Method, w.r.URL.Path)
	w.Header().Write(&w.tap.buf)
	if strings.HasPrefix(w.r.URL.Path, "/proxy/") {
		w.tap.proxy = append(w.tap.proxy, code)
		w.tap.calls = append(w.tap.calls, fmt.Sprintf("%d %s", code, w.r.URL.Path))
	}
	w.tap.mu.Unlock()
	w.ResponseWriter.WriteHeader(code)
}

func (w *tapWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.tap.mu.Lock()
	w.tap.buf.Write(b)
	w.tap.mu.Unlock()
	return w.ResponseWriter.Write(b)
}

func (w *tapWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *tapWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// startTappedServer is startServer with settings from the environment map env, every response
// copied to the returned tap, and the logs kept.
func startTappedServer(t *testing.T, yamlText string, env map[string]string) (string, *wireTap, *bytes.Buffer) {
	t.Helper()
	if _, err := fs.Stat(web.FS, "app.wasm"); err != nil {
		t.Fatal("web/app.wasm is not built: run `make wasm` (make test does it) before the browser tests")
	}
	settings, err := config.Parse([]byte(yamlText), "e2e.yaml", func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatalf("configuration: %v", err)
	}
	logs := &bytes.Buffer{}
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return logs.Write(p)
	}), nil))
	srv := newServer(t, server.Config{Settings: settings, Logger: logger, ChatTokensPerSecond: 400})
	tap := &wireTap{}
	ts := httptest.NewServer(tap.wrap(srv))
	t.Cleanup(func() { ts.Close(); srv.Close() })
	return ts.URL, tap, logs
}

// catalogOf reads /catalog.json from the server under test.
func catalogOf(t *testing.T, base string) *catalog.Catalog {
	t.Helper()
	res, err := http.Get(base + "/catalog.json")
	if err != nil {
		t.Fatalf("GET /catalog.json: %v", err)
	}
	defer res.Body.Close()
	var cat catalog.Catalog
	if err := json.NewDecoder(res.Body).Decode(&cat); err != nil {
		t.Fatalf("decoding /catalog.json: %v", err)
	}
	return &cat
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// oauthTokenPrefixes begin every access and refresh token the script sandbox issues; no
// answer to the browser, page, storage or log line may hold one.
var oauthTokenPrefixes = []string{"sandbox-at.", "sandbox-rt."}

// oauthCodePrefix begins the script sandbox's authorization codes.
const oauthCodePrefix = "sandbox-code."

// TestSecretsNeverReachTheBrowser configures a secret for every API, uses one operation page
// of each (signed in to the script sandbox with OAuth first), and looks for the secrets and
// the OAuth tokens in the page, the URL, the browser's storage and cookies, every response
// the server sent, and the server's logs.
func TestSecretsNeverReachTheBrowser(t *testing.T) {
	t.Parallel()
	env := map[string]string{}
	var secrets []string
	yamlText := "apis:\n"
	for _, slug := range config.BuiltIn() {
		secret := fmt.Sprintf("%s-E2E-SECRET-%d", slug, time.Now().UnixNano()%1e9)
		secrets = append(secrets, secret)
		env["LOUPE_"+strings.ToUpper(slug)+"_KEY"] = secret
		if slug == "docs" || slug == "pagination" {
			// Their scheme sends nothing; send the secret in a header all the same.
			yamlText += "  " + slug + ":\n    credential: {send: header, name: X-Loupe-Test-Key}\n"
		}
	}
	base, tap, logs := startTappedServer(t, yamlText, env)
	cat := catalogOf(t, base)
	ctx := newBrowser(t)

	for _, api := range cat.APIs {
		if len(api.Operations) == 0 {
			continue
		}
		op := api.Operations[0]
		for _, o := range api.Operations {
			if o.Method == "GET" {
				op = o
				break
			}
		}
		t.Run(api.Slug+"/"+op.ID, func(t *testing.T) {
			openPage(t, ctx, base+"/"+api.Slug+"/"+op.ID)
			if api.Slug == "script" {
				// The script API signs in with OAuth: sign in through the sandbox's consent page
				// first, so that the call goes with the user's grant.
				signInToSandbox(t, ctx, "")
				if _, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Poll[bool](`document.getElementById("oauth-needs").dataset.covered === "true" || null`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
					t.Fatalf("after signing in, the operation is not covered by the grant: %v", err)
				}
			}
			tctx := within(t, ctx, 60*time.Second)
			calls := len(tap.proxyPaths(api.Slug))
			if err := chromedp.Do(tctx, chromedp.WaitVisible(chromedp.CSS("#send, #chat-send"))); err != nil {
				t.Fatalf("no send button on %s: %v", op.ID, err)
			}
			send := []chromedp.Action[chromedp.Void]{chromedp.Click(chromedp.ID("send"))}
			if chat, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`!!document.getElementById("chat-send")`)); chat {
				// The chat view: a message first, then its own send button.
				send = []chromedp.Action[chromedp.Void]{chromedp.SendKeys(chromedp.ID("chat-input"), "Build a small todo app"),
					chromedp.WaitEnabled(chromedp.ID("chat-send")), chromedp.Click(chromedp.ID("chat-send"))}
			}
			if err := chromedp.Do(tctx, send...); err != nil {
				t.Fatalf("sending %s: %v", op.ID, err)
			}
			// The answer shows in the response panel, or (chat) in the chat view: wait for the
			// proxied call to be answered, then for the page to settle.
			deadline := time.Now().Add(45 * time.Second)
			for len(tap.proxyPaths(api.Slug)) == calls && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
			}
			if len(tap.proxyPaths(api.Slug)) == calls {
				text, _ := chromedp.Run(tctx, chromedp.Text(chromedp.CSS("body")))
				t.Fatalf("clicking send made no call to /proxy/%s/; the page says: %.600s", api.Slug, text)
			}
			_ = chromedp.Do(within(t, ctx, 20*time.Second), chromedp.WaitVisible(chromedp.CSS("#response-status, #chat-metrics, #response")))
			time.Sleep(500 * time.Millisecond)
			t.Logf("%s %s: %v", op.Method, op.Path, tap.proxyPaths(api.Slug))
			browser, err := chromedp.Run(tctx, chromedp.Evaluate[string](`JSON.stringify({
				url: location.href, html: document.documentElement.outerHTML, cookie: document.cookie,
				local: Object.assign({}, localStorage), session: Object.assign({}, sessionStorage)})`))
			if err != nil {
				t.Fatalf("reading the page: %v", err)
			}
			for _, s := range append(secrets, oauthTokenPrefixes...) {
				if strings.Contains(browser, s) {
					t.Errorf("the page, URL or storage holds the secret %q", s)
				}
			}
		})
	}
	wire := tap.String()
	if !strings.Contains(wire, "/proxy/") {
		t.Fatalf("no proxied call was made")
	}
	if !strings.Contains(logs.String(), "oauth signed in") {
		t.Errorf("the logs have no sign-in to the script sandbox: the OAuth tokens were not exercised")
	}
	// The authorization code travels through the browser by design, in the redirect from the
	// consent page to the callback, and only there.
	redirects := 0
	for _, line := range strings.Split(wire, "\n") {
		switch {
		case !strings.Contains(line, oauthCodePrefix):
		case strings.HasPrefix(line, "Location: ") && strings.Contains(line, "/oauth/callback?"):
			redirects++
		default:
			t.Errorf("an answer holds an authorization code outside the redirect to the callback: %.300s", line)
		}
	}
	if redirects != 1 {
		t.Errorf("%d redirects to the callback carried a code; want the one sign-in's", redirects)
	}
	if strings.Contains(logs.String(), oauthCodePrefix) {
		t.Errorf("the logs hold an authorization code")
	}
	for _, s := range append(secrets, oauthTokenPrefixes...) {
		if strings.Contains(wire, s) {
			i := strings.Index(wire, s)
			t.Errorf("a response held the secret %q: …%s…", s, wire[max(0, i-300):min(len(wire), i+100)])
		}
		if strings.Contains(logs.String(), s) {
			t.Errorf("the logs hold the secret %q", s)
		}
	}
}

// TestUsersFileModeNeedsALogin starts Loupe with a users file: an anonymous visitor gets the
// login page, and no proxied call succeeds until they log in.
func TestUsersFileModeNeedsALogin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hash, _ := bcrypt.GenerateFromPassword([]byte("e2e password"), bcrypt.MinCost)
	users := filepath.Join(dir, "users")
	if err := os.WriteFile(users, []byte("alice:"+string(hash)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base, tap, _ := startTappedServer(t, "server:\n  access:\n    mode: users\n    users_file: "+users+"\n", nil)
	ctx := newBrowser(t)
	tctx := within(t, ctx, 60*time.Second)
	if err := chromedp.Do(tctx, chromedp.Navigate(base+"/entities/entities.search"), chromedp.WaitVisible(chromedp.ID("login"))); err != nil {
		t.Fatalf("an anonymous visitor: want the login page: %v", err)
	}
	loc, _ := chromedp.Run(tctx, chromedp.Location())
	if !strings.Contains(loc, "/login?next=") {
		t.Errorf("URL: got %s; want /login?next=…", loc)
	}
	// A proxied call made by the browser without a session.
	if err := chromedp.Do(tctx, chromedp.Navigate(base+"/proxy/entities/v1/entities:search?query=paris")); err != nil {
		t.Fatal(err)
	}
	body, _ := chromedp.Run(tctx, chromedp.Text(chromedp.CSS("body")))
	if !strings.Contains(body, "log in") {
		t.Errorf("anonymous proxied call: got %q; want a log-in error", body)
	}
	for _, code := range tap.proxyStatuses() {
		if code < 400 {
			t.Errorf("an anonymous proxied call got %d; want none to succeed", code)
		}
	}
	// Logging in opens the page asked for.
	if err := chromedp.Do(tctx,
		chromedp.Navigate(base+"/entities/entities.search"), chromedp.WaitVisible(chromedp.ID("login")),
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "alice"),
		chromedp.SendKeys(chromedp.CSS(`input[name="password"]`), "e2e password"),
		chromedp.Submit(chromedp.ID("login")),
		chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")), chromedp.WaitVisible(chromedp.ID("side")),
	); err != nil {
		t.Fatalf("logging in: %v", err)
	}
	// The sidebar says who is signed in, and Log out ends the session.
	if err := chromedp.Do(tctx, chromedp.WaitVisible(chromedp.ID("logout"))); err != nil {
		t.Fatalf("no Log out button after logging in: %v", err)
	}
	who, err := chromedp.Run(tctx, chromedp.Text(chromedp.ID("account")))
	if err != nil || !strings.Contains(who, "alice") {
		t.Fatalf("the account menu: got %q (%v); want it to name alice", who, err)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("logout")), chromedp.WaitVisible(chromedp.ID("login"))); err != nil {
		t.Fatalf("logging out: want the login page: %v", err)
	}
	before := len(tap.proxyStatuses())
	if err := chromedp.Do(tctx, chromedp.Navigate(base+"/proxy/entities/v1/entities:search?query=paris")); err != nil {
		t.Fatal(err)
	}
	after := tap.proxyStatuses()[before:]
	if len(after) == 0 {
		t.Errorf("the proxied call after logging out was not seen")
	}
	for _, code := range after {
		if code < 400 {
			t.Errorf("a proxied call after logging out got %d; want it refused", code)
		}
	}
}

// cspRecorder is run in every document before its own scripts (DevTools-injected scripts are
// not subject to the page's CSP): it keeps every securitypolicyviolation event.
const cspRecorder = `window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.effectiveDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber);
});`

// cspViolations returns the violations the current document recorded.
func cspViolations(t *testing.T, ctx context.Context) []string {
	t.Helper()
	v, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[[]string](`window.__csp || ["the recorder did not run"]`))
	if err != nil {
		t.Fatalf("reading CSP violations: %v", err)
	}
	return v
}

// TestTheAppRunsUnderItsCSP uses the app (an entity search, a streamed chat answer with its
// HTML preview) and expects no Content-Security-Policy violation. A deliberate inline
// script first shows that the check sees violations.
func TestTheAppRunsUnderItsCSP(t *testing.T) {
	t.Parallel()
	base, tap, _ := startTappedServer(t, "", nil)
	ctx := newBrowser(t)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspRecorder}); err != nil {
		t.Fatal(err)
	}

	openPage(t, ctx, base+"/entities/entities.search")
	if got := cspViolations(t, ctx); len(got) != 0 {
		t.Errorf("loading the app: %q", got)
	}
	_, _ = chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[string](`(() => { const s = document.createElement("script"); s.textContent = "window.__inline = 1"; document.head.appendChild(s); return String(window.__inline); })()`))
	time.Sleep(200 * time.Millisecond) // the event is dispatched asynchronously
	if got := cspViolations(t, ctx); len(got) != 1 {
		t.Fatalf("a blocked inline script: got %q; want one violation, or the check sees nothing", got)
	}
	tctx := within(t, ctx, 60*time.Second)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
		t.Fatalf("entity search: %v", err)
	}
	if got := cspViolations(t, ctx); len(got) != 1 {
		t.Errorf("an entity search: got %q (the first is the deliberate one)", got)
	}

	openPage(t, ctx, base+"/chat/createChatCompletion")
	calls := len(tap.proxyPaths("chat"))
	if err := chromedp.Do(tctx, chromedp.WaitVisible(chromedp.ID("chat-input")),
		chromedp.SendKeys(chromedp.ID("chat-input"), "Build a small todo app"),
		chromedp.WaitEnabled(chromedp.ID("chat-send")), chromedp.Click(chromedp.ID("chat-send"))); err != nil {
		t.Fatalf("chat: %v", err)
	}
	for len(tap.proxyPaths("chat")) == calls && tctx.Err() == nil {
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(3 * time.Second) // the stream, the rendering and the preview
	if got := cspViolations(t, ctx); len(got) != 0 {
		t.Errorf("a chat answer: %q", got)
	}
}
