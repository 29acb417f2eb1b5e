package server

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"loupe/server/sandbox/script"
	"loupe/server/testenv/pgtest"
)

// newTokens returns the values in after that are not in before and start with prefix.
func newTokens(before, after []string, prefix string) []string {
	var out []string
	for _, v := range after {
		if strings.HasPrefix(v, prefix) && !slices.Contains(before, v) {
			out = append(out, v)
		}
	}
	return out
}

// TestReplicasShareOAuthGrants: two replicas on one database and one secret key, one browser
// (one cookie jar). A sign-in to the script sandbox made through A is used by B's proxy at the
// next call (B's script sandbox accepts A's issued token); a renewal made by B (B's sandbox
// accepts A's refresh token) is what A sends next; a sign-out on A makes B fall back to the API
// key, and the revoked token is refused by B's sandbox.
func TestReplicasShareOAuthGrants(t *testing.T) {
	env := map[string]string{"LOUPE_DATABASE_URL": pgtest.DB(t), "LOUPE_SECRET_KEY": "replicas-share-this-key-0123456789abcdef"}
	settings := restartSettings(t, "", env)
	jar, _ := cookiejar.New(nil)
	a, b := startWith(t, settings, jar), startWith(t, settings, jar)
	get, create := "/proxy/script/v1/projects/"+script.SeedScriptID, "/proxy/script/v1/projects"

	if code, at, body := a.do("POST", "/login", url.Values{"name": {"alice"}, "password": {"correct horse"}, "next": {"/"}}); code != 200 || strings.Contains(at, "/login") {
		t.Fatalf("login on A: got %d at %s: %.200s", code, at, body)
	}
	if _, granted := b.signedIn(); granted {
		t.Fatal("B before the sign-in: got a grant; want none")
	}
	// A read-only grant: a create it sends is refused for its scopes, one with the API key is not.
	if code, at, body := a.signIn("allow", scopeRO, scopeEmail); code != 200 || !strings.HasSuffix(at, "/script/projects.get") {
		t.Fatalf("sign-in on A: got %d at %s: %.300s", code, at, body)
	}
	issued := a.grantTokens()
	if _, granted := b.signedIn(); !granted {
		t.Fatal("B after A's sign-in: got no grant; want A's")
	}
	if code, _, body := b.do("GET", get, nil); code != 200 {
		t.Fatalf("B's call with A's grant: got %d %s; want 200", code, body)
	}
	if code, _, body := b.do("POST", create, nil); code != 403 || !strings.Contains(body, "insufficient authentication scopes") {
		t.Errorf("B's create with A's read-only grant: got %d %.200s; want 403 insufficient scopes (the grant's token sent)", code, body)
	}
	if got := b.grantTokens(); len(newTokens(issued, got, "sandbox-")) != 0 || !slices.Equal(newTokens(nil, got, "sandbox-rt."), newTokens(nil, issued, "sandbox-rt.")) {
		t.Errorf("B holds other tokens than A's grant: got %d values; want A's", len(got))
	}

	// The access token expires (two seconds); B renews it, and A sends B's renewed token.
	time.Sleep(2100 * time.Millisecond)
	if code, _, body := b.do("GET", get, nil); code != 200 {
		t.Fatalf("B's call past the access token's life: got %d %s; want 200 with a renewed token", code, body)
	}
	renewed := newTokens(issued, b.grantTokens(), "sandbox-at.")
	if len(renewed) != 1 {
		t.Fatalf("B after its renewal: got %d new access tokens; want 1", len(renewed))
	}
	if code, _, body := a.do("GET", get, nil); code != 200 {
		t.Fatalf("A's call after B's renewal: got %d %s; want 200", code, body)
	}
	if got := newTokens(issued, a.grantTokens(), "sandbox-at."); !slices.Equal(got, renewed) {
		t.Errorf("A after B's renewal: got %d new access tokens (B's among them: %v); want only B's renewed one",
			len(got), slices.Contains(got, renewed[0]))
	}

	// B's sandbox accepts the token directly; after A's sign-out (which revokes it) it does not.
	direct := func() int {
		req, _ := http.NewRequest("GET", b.ts.URL+"/sandbox/script/v1/projects/"+script.SeedScriptID, nil)
		req.Header.Set("Authorization", "Bearer "+renewed[0])
		res, err := b.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := direct(); code != 200 {
		t.Fatalf("the renewed token on B's sandbox: got %d; want 200", code)
	}
	if code, at, body := a.do("POST", "/oauth/signout?api=script&return=/script", nil); code != 200 || !strings.HasSuffix(at, "/script") {
		t.Fatalf("sign-out on A: got %d at %s: %.200s", code, at, body)
	}
	if _, granted := b.signedIn(); granted {
		t.Error("B after A's sign-out: got a grant; want none")
	}
	if code, _, body := b.do("POST", create, nil); code != 200 {
		t.Errorf("B's create after A's sign-out: got %d %.200s; want 200 with the API key", code, body)
	}
	if code := direct(); code != 401 {
		t.Errorf("the token A's sign-out revoked, on B's sandbox: got %d; want 401", code)
	}
	a.noTokenShown(map[string]bool{renewed[0]: true})
	b.noTokenShown(map[string]bool{renewed[0]: true})
}
