package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
)

// TestSandboxConsentPage drives the script sandbox's consent page in Chromium, served by the
// real server with its security headers: Allow and Deny go back to the callback (the page's
// CSP allows the form and its redirect), a bad request stays on an error page, and the page
// passes axe-core in both color schemes. The page needs no wasm, so the server starts without
// it.
func TestSandboxConsentPage(t *testing.T) {
	t.Parallel()
	srv := newServer(t, server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	sum := sha256.Sum256([]byte("a-verifier-of-at-least-forty-three-characters-long"))
	authorize := func(override map[string]string) string {
		q := url.Values{
			"client_id": {"loupe-sandbox-client"}, "redirect_uri": {ts.URL + "/oauth/callback"}, "response_type": {"code"},
			"scope": {"https://www.googleapis.com/auth/script.projects.readonly https://www.googleapis.com/auth/userinfo.email"},
			"state": {"s-42"}, "code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		}
		for k, v := range override {
			q.Set(k, v)
		}
		return ts.URL + "/sandbox/script/oauth/authorize?" + q.Encode()
	}
	ctx := newBrowser(t)

	// answer opens the consent page, presses a button and returns the callback's query.
	answer := func(button string) url.Values {
		t.Helper()
		tctx := within(t, ctx, 30*time.Second)
		err := chromedp.Do(tctx,
			chromedp.Navigate(authorize(nil)),
			chromedp.WaitVisible(`//h1[contains(., "Loupe wants to access")]`),
			chromedp.WaitVisible(`//li[contains(., "View script projects")]`),
			chromedp.Click(chromedp.CSS(button)),
		)
		if err != nil {
			t.Fatalf("pressing %s: %v", button, err)
		}
		loc := waitLocation(t, ctx, ts.URL+"/oauth/callback?")
		u, _ := url.Parse(loc)
		return u.Query()
	}
	if q := answer("button.allow"); !strings.HasPrefix(q.Get("code"), "sandbox-code.") || q.Get("state") != "s-42" {
		t.Errorf("Allow: the callback got %v; want a code and state s-42", q)
	}
	if q := answer("button.deny"); q.Get("error") != "access_denied" || q.Get("state") != "s-42" || q.Has("code") {
		t.Errorf("Deny: the callback got %v; want error=access_denied and state s-42", q)
	}

	// A redirect to another site is refused on a page of its own.
	tctx := within(t, ctx, 30*time.Second)
	err := chromedp.Do(tctx,
		chromedp.Navigate(authorize(map[string]string{"redirect_uri": "https://evil.example/oauth/callback"})),
		chromedp.WaitVisible(chromedp.CSS(`[role=alert]`)),
	)
	text, _ := chromedp.Run(tctx, chromedp.Text(chromedp.CSS(`[role=alert]`)))
	path, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`location.pathname`))
	if err != nil || !strings.Contains(text, "not on this host") || path != "/sandbox/script/oauth/authorize" {
		t.Errorf("bad redirect_uri: got %q at %s (%v); want the error page", text, path, err)
	}

	// axe-core, injected with the CSP bypassed (emulate does it; the flows above ran under it).
	axe := axeSource(t)
	for _, scheme := range []string{"light", "dark"} {
		emulate(t, ctx, 1280, 900, scheme)
		if err := chromedp.Do(within(t, ctx, 30*time.Second), chromedp.Navigate(authorize(nil)), chromedp.WaitVisible(chromedp.CSS(`button.allow`))); err != nil {
			t.Fatalf("opening the consent page: %v", err)
		}
		if v := axeViolations(t, ctx, axe); len(v) > 0 {
			t.Errorf("%s: %d axe-core violations:\n%s", scheme, len(v), strings.Join(v, "\n"))
		}
	}
}

// waitLocation waits until the tab's address starts with prefix (the tab may be between two
// documents, so each look is its own evaluation) and returns it.
func waitLocation(t *testing.T, ctx context.Context, prefix string) string {
	t.Helper()
	var href string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var err error
		href, err = chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[string](`location.href`))
		if err == nil && strings.HasPrefix(href, prefix) {
			return href
		}
	}
	t.Fatalf("the tab is at %s; want %s…", href, prefix)
	return ""
}
