package script

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/oauth2"
	"google.golang.org/api/option"
	scriptapi "google.golang.org/api/script/v1"

	"loupe/server/sandbox/state"
)

// TestGrantSessionOutlivesRefresh: a client calling the sandbox directly is a credential
// session (server/sandbox_session.go names it by a hash of what it sends); with an OAuth access
// token that credential changes at every refresh, so the session follows the grant instead and
// the project a client created is still its own after the token was renewed. A second grant is
// another session.
func TestGrantSessionOutlivesRefresh(t *testing.T) {
	h := New(Options{})
	mux := http.NewServeMux()
	mux.Handle("/sandbox/script/", http.StripPrefix("/sandbox/script", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a := r.Header.Get("Authorization"); a != "" { // as withSandboxSession does for a client without a cookie
			r = r.WithContext(state.WithSession(r.Context(), state.CredentialSession(a)))
		}
		h.ServeHTTP(w, r)
	})))
	s := &oauthSandbox{srv: httptest.NewServer(mux)}
	t.Cleanup(s.srv.Close)
	ctx := context.Background()
	base := option.WithEndpoint(s.srv.URL + "/sandbox/script/")
	conf := s.config(t, scopeProjects)

	tok := signInWith(t, ctx, conf)
	svc, err := scriptapi.NewService(ctx, base, option.WithTokenSource(oauth2.StaticTokenSource(tok)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Projects.Create(&scriptapi.CreateProjectRequest{Title: "Kept across refresh"}).Context(ctx).Do()
	if err != nil {
		t.Fatalf("projects.create: %v", err)
	}

	renewed, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil || renewed.AccessToken == tok.AccessToken {
		t.Fatalf("refresh: got %v, %v; want a new access token", renewed, err)
	}
	svc2, _ := scriptapi.NewService(ctx, base, option.WithTokenSource(oauth2.StaticTokenSource(renewed)))
	if got, err := svc2.Projects.Get(p.ScriptId).Context(ctx).Do(); err != nil || got.Title != "Kept across refresh" {
		t.Errorf("projects.get with the renewed token: got %+v, %v; want the project", got, err)
	}

	other := signInWith(t, ctx, conf)
	svc3, _ := scriptapi.NewService(ctx, base, option.WithTokenSource(oauth2.StaticTokenSource(other)))
	if _, err := svc3.Projects.Get(p.ScriptId).Context(ctx).Do(); err == nil {
		t.Errorf("projects.get with another grant: got the project; want 404 (another session)")
	}
}
