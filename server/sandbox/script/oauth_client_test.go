package script

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	scriptapi "google.golang.org/api/script/v1"
)

// oauthSandbox serves the sandbox under /sandbox/script on a test server and counts the
// refresh_token grants its token endpoint answers.
type oauthSandbox struct {
	srv       *httptest.Server
	refreshes atomic.Int32
}

func newOAuthSandbox(t *testing.T, opts Options) *oauthSandbox {
	t.Helper()
	s := &oauthSandbox{}
	h := New(opts)
	mux := http.NewServeMux()
	mux.Handle("/sandbox/script/", http.StripPrefix("/sandbox/script", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/oauth/token" && r.FormValue("grant_type") == "refresh_token" {
			s.refreshes.Add(1)
		}
		h.ServeHTTP(w, r)
	})))
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

// config discovers the endpoints from the metadata, as a client would, for scopes.
func (s *oauthSandbox) config(t *testing.T, scopes ...string) *oauth2.Config {
	t.Helper()
	resp, err := http.Get(s.srv.URL + "/sandbox/script/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var md struct {
		Issuer                string `json:"issuer"`
		AuthorizationEndpoint string `json:"authorization_endpoint"`
		TokenEndpoint         string `json:"token_endpoint"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&md); err != nil {
		t.Fatalf("metadata: %v", err)
	}
	if md.Issuer != s.srv.URL+"/sandbox/script" {
		t.Fatalf("issuer got %q; want %s/sandbox/script", md.Issuer, s.srv.URL)
	}
	return &oauth2.Config{
		ClientID: SandboxClientID, ClientSecret: SandboxClientSecret, Scopes: scopes,
		Endpoint:    oauth2.Endpoint{AuthURL: md.AuthorizationEndpoint, TokenURL: md.TokenEndpoint},
		RedirectURL: s.srv.URL + "/oauth/callback",
	}
}

// consent opens the consent page of the authorization URL, presses Allow and returns the code
// from the redirect, checking the state came back.
func consent(t *testing.T, authURL, state string) string {
	t.Helper()
	browser := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := browser.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := requestIDPattern.FindSubmatch(page)
	if resp.StatusCode != 200 || m == nil {
		t.Fatalf("consent page: got %d %s", resp.StatusCode, page)
	}
	action, _ := url.Parse(authURL)
	action = action.ResolveReference(&url.URL{Path: "authorize"})
	resp, err = browser.PostForm(action.String(), url.Values{"request": {string(m[1])}, "decision": {"allow"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || loc.Query().Get("state") != state || loc.Query().Get("code") == "" {
		t.Fatalf("allow: got %d %q; want 302 with the code and state %s", resp.StatusCode, resp.Header.Get("Location"), state)
	}
	return loc.Query().Get("code")
}

// signInWith runs the authorization code flow with PKCE through golang.org/x/oauth2.
func signInWith(t *testing.T, ctx context.Context, conf *oauth2.Config) *oauth2.Token {
	t.Helper()
	verifier, state := oauth2.GenerateVerifier(), oauth2.GenerateVerifier()
	code := consent(t, conf.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)), state)
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	return tok
}

// TestOfficialClientOAuth drives the sandbox with google.golang.org/api/script/v1 and an
// oauth2 token source: the full grant works, a narrowed grant gets the 403 naming the method,
// an expired token is refreshed by the token source without the caller noticing, and a
// revoked refresh token fails with invalid_grant.
func TestOfficialClientOAuth(t *testing.T) {
	const ttl = 4 * time.Second
	s := newOAuthSandbox(t, Options{AccessTokenTTL: ttl})
	ctx := context.Background()
	base := option.WithEndpoint(s.srv.URL + "/sandbox/script/")

	// Every scope: projects, metrics and runs work.
	conf := s.config(t, scopeProjects, scopeMetrics, "https://www.googleapis.com/auth/spreadsheets")
	tok := signInWith(t, ctx, conf)
	// The token source renews 2 s before expiry (the default 10 s would exceed the 4 s life).
	ts := oauth2.ReuseTokenSourceWithExpiry(tok, conf.TokenSource(ctx, tok), ttl/2)
	svc, err := scriptapi.NewService(ctx, base, option.WithTokenSource(ts))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := svc.Projects.Get(SeedScriptID).Context(ctx).Do(); err != nil || p.Title != "Invoice mailer" {
		t.Fatalf("projects.get: got %+v, %v; want Invoice mailer", p, err)
	}
	if _, err := svc.Projects.GetMetrics(SeedScriptID).MetricsGranularity("DAILY").Context(ctx).Do(); err != nil {
		t.Errorf("projects.getMetrics: %v", err)
	}
	if op, err := svc.Scripts.Run(SeedDeploymentID, &scriptapi.ExecutionRequest{Function: "sendInvoices", Parameters: []any{"2026-11"}}).Context(ctx).Do(); err != nil || !op.Done {
		t.Errorf("scripts.run: got %+v, %v; want done", op, err)
	}

	// Past the renewal point the token source refreshes, and calls go on.
	for time.Now().Before(tok.Expiry.Add(-ttl / 2)) {
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := svc.Projects.GetContent(SeedScriptID).Context(ctx).Do(); err != nil {
		t.Errorf("projects.getContent after expiry: %v", err)
	}
	if n := s.refreshes.Load(); n < 1 {
		t.Errorf("refresh grants: got %d; want the token source to have refreshed", n)
	}
	// The first token itself is refused once expired, as Google does.
	for time.Now().Before(tok.Expiry.Add(100 * time.Millisecond)) {
		time.Sleep(50 * time.Millisecond)
	}
	stale, _ := scriptapi.NewService(ctx, base, option.WithTokenSource(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok.AccessToken})))
	_, err = stale.Projects.Get(SeedScriptID).Context(ctx).Do()
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) || gerr.Code != 401 || gerr.Message != invalidCredentials {
		t.Errorf("expired token: got %v; want 401 UNAUTHENTICATED", err)
	}

	// A narrowed grant: read-only projects. Reading works; metrics answer 403 naming the method.
	narrow := s.config(t, scopeReadonly)
	ntok := signInWith(t, ctx, narrow)
	nsvc, _ := scriptapi.NewService(ctx, base, option.WithTokenSource(narrow.TokenSource(ctx, ntok)))
	if _, err := nsvc.Projects.GetContent(SeedScriptID).Context(ctx).Do(); err != nil {
		t.Errorf("read-only projects.getContent: %v", err)
	}
	_, err = nsvc.Projects.GetMetrics(SeedScriptID).MetricsGranularity("DAILY").Context(ctx).Do()
	if !errors.As(err, &gerr) || gerr.Code != 403 || gerr.Message != "Request had insufficient authentication scopes." ||
		!strings.Contains(fmt.Sprint(gerr.Details), "method:google.apps.script.v1.ProjectsService.GetMetrics") ||
		!strings.Contains(gerr.Header.Get("WWW-Authenticate"), scopeMetrics) {
		t.Errorf("read-only projects.getMetrics: got %v; want 403 naming GetMetrics and its scope", err)
	}

	// A revoked refresh token: the token source fails with invalid_grant.
	resp, err := http.PostForm(s.srv.URL+"/sandbox/script/oauth/revoke", url.Values{"token": {ntok.RefreshToken}})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("revoke: %v %v", resp, err)
	}
	resp.Body.Close()
	expired := &oauth2.Token{AccessToken: ntok.AccessToken, RefreshToken: ntok.RefreshToken, Expiry: time.Now().Add(-time.Minute)}
	_, err = narrow.TokenSource(ctx, expired).Token()
	var rerr *oauth2.RetrieveError
	if !errors.As(err, &rerr) || rerr.ErrorCode != "invalid_grant" {
		t.Errorf("refresh after revocation: got %v; want invalid_grant", err)
	}
}
