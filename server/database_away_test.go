package server

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"loupe/server/testenv/pgtest"
)

// TestDatabaseAwayAtRunTime: the database of server.database stops while Loupe serves. The
// sandbox requests that need it get 503 in their API's own error shape (script: Google's
// UNAVAILABLE; cluster: OpenSearch's error object) saying what happened; a signed-in user's
// request gets 503 in Loupe's own error shape rather than the login page; what needs no
// database still answers. Once the database is back, everything acknowledged before is there.
func TestDatabaseAwayAtRunTime(t *testing.T) {
	c := pgtest.New(t)
	db, err := c.CreateDB(context.Background(), "loupe")
	if err != nil {
		t.Fatal(err)
	}
	open := replicas(t, db, "", 1)[0]
	hash, _ := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	users := filepath.Join(t.TempDir(), "users")
	if err := os.WriteFile(users, []byte("alice:"+string(hash)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	gated := replicas(t, db, "server:\n  access:\n    mode: users\n    users_file: "+users+"\n", 1)[0]

	br := browser(t)
	code, body := scriptCall(t, br, "POST", open+"/proxy/script/v1/projects", `{"title":"kept"}`, nil)
	if code != 200 {
		t.Fatalf("create: got %d %s", code, body)
	}
	id := between(body, `"scriptId":"`, `"`)
	if code, body := scriptCall(t, br, "POST", open+"/proxy/cluster/_plugins/_security/api/_upgrade_perform", `{"config":["roles"]}`, nil); code != 200 {
		t.Fatalf("upgrade: got %d %s", code, body)
	}
	jar, _ := cookiejar.New(nil)
	alice := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if resp, err := alice.PostForm(gated+"/login", url.Values{"name": {"alice"}, "password": {"correct horse"}}); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: got %v, %v; want 303", resp, err)
	}

	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, method, url, body string
		want                    []string
	}{
		{"script read", "GET", open + "/proxy/script/v1/projects/" + id, "", []string{`"code":503`, `"status":"UNAVAILABLE"`, "cannot reach its state database", "nothing was changed", "server.database"}},
		{"script change", "POST", open + "/proxy/script/v1/projects", `{"title":"lost?"}`, []string{`"status":"UNAVAILABLE"`, "Try again in a moment"}},
		{"cluster read", "GET", open + "/proxy/cluster/_plugins/_security/api/_upgrade_check", "", []string{`"type":"sandbox_state_unavailable_exception"`, `"status":503`}},
		{"cluster change", "POST", open + "/proxy/cluster/_plugins/_security/api/_upgrade_perform", `{"config":["rolesmapping"]}`, []string{`"type":"sandbox_state_unavailable_exception"`}},
		{"reset", "POST", open + "/sandbox/script/_sandbox/reset", "", []string{"The script sandbox cannot reach its state database", `"source":"loupe sandbox"`}},
	} {
		code, body := scriptCall(t, br, tc.method, tc.url, tc.body, nil)
		if code != http.StatusServiceUnavailable {
			t.Errorf("%s with the database away: got %d %s; want 503", tc.name, code, body)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s with the database away: got %s; want %s", tc.name, body, w)
			}
		}
	}
	resp, body := get(t, alice, gated+"/proxy/entities/v1/entities:search?query=paris&limit=1", nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "Loupe cannot reach its database to check your login") || !strings.Contains(body, `"source":"loupe access"`) {
		t.Errorf("a signed-in call with the database away: got %d %s; want 503 from Loupe saying so", resp.StatusCode, body)
	}
	if resp, body := get(t, br, open+"/proxy/entities/v1/entities:search?query=paris&limit=1", nil); resp.StatusCode != 200 {
		t.Errorf("a call that needs no database: got %d %s; want 200", resp.StatusCode, body)
	}

	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if code, body := scriptCall(t, br, "GET", open+"/proxy/script/v1/projects/"+id, "", nil); code != 200 || !strings.Contains(body, `"title":"kept"`) {
		t.Errorf("the project after the database is back: got %d %s; want it kept", code, body)
	}
	if code, body := scriptCall(t, br, "GET", open+"/proxy/cluster/_plugins/_security/api/_upgrade_check", "", nil); code != 200 || !strings.Contains(body, `"roles":["no_update_required"]`) {
		t.Errorf("the upgrade after the database is back: got %d %s; want roles kept upgraded", code, body)
	}
	if resp, body := get(t, alice, gated+"/proxy/entities/v1/entities:search?query=paris&limit=1", nil); resp.StatusCode != 200 {
		t.Errorf("alice after the database is back: got %d %s; want her login kept", resp.StatusCode, body)
	}
}
