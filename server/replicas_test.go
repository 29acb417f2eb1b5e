package server

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"loupe/server/config"
	"loupe/server/testenv/pgtest"
)

// replicaEnv is the environment every replica of a test has: the database at url and one
// secret key.
func replicaEnv(url string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		switch k {
		case "LOUPE_DATABASE_URL":
			return url, true
		case "LOUPE_SECRET_KEY":
			return "the-replicas-of-a-test-share-this-key", true
		}
		return "", false
	}
}

// replicas starts n Loupe servers on one PostgreSQL database (server.database), as replicas
// behind a load balancer are, configured with yamlText, and returns their URLs.
func replicas(t *testing.T, url, yamlText string, n int) []string {
	t.Helper()
	var out []string
	for range n {
		settings, err := config.Parse([]byte(yamlText), "loupe.yaml", replicaEnv(url))
		if err != nil {
			t.Fatal(err)
		}
		srv, err := New(Config{Settings: settings, Logger: slog.New(slog.NewTextHandler(&syncBuffer{}, nil))})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv)
		t.Cleanup(func() { ts.Close(); srv.Close() })
		out = append(out, ts.URL)
	}
	return out
}

// TestReplicasShareSandboxState: two Loupe servers on one database; one browser (one cookie)
// whose every request goes to either. A change acknowledged by one is seen by the very next
// request on the other, whether the other held the session's state already (the seed it read,
// or its own earlier copy) or not; the script and the cluster sandboxes, through the proxy, and
// a Reset on one is seen on the other.
func TestReplicasShareSandboxState(t *testing.T) {
	rs := replicas(t, pgtest.DB(t), "", 2)
	a, b := rs[0], rs[1]
	br := browser(t) // cookies are per host, not per port: both replicas see the same one

	// B reads the seed first, so it holds the session's (empty) state.
	if code, body := scriptCall(t, br, "GET", b+"/proxy/script/v1/projects/nope", "", nil); code != 404 {
		t.Fatalf("B reads a missing project: got %d %s; want 404", code, body)
	}
	code, body := scriptCall(t, br, "POST", a+"/proxy/script/v1/projects", `{"title":"made on A"}`, nil)
	if code != 200 {
		t.Fatalf("A creates: got %d %s", code, body)
	}
	id := between(body, `"scriptId":"`, `"`)
	if code, body := scriptCall(t, br, "GET", b+"/proxy/script/v1/projects/"+id, "", nil); code != 200 || !strings.Contains(body, "made on A") {
		t.Fatalf("B reads A's project next: got %d %s; want it", code, body)
	}
	// B changes it; A, which holds its own copy from the create, sees the change next.
	if code, body := scriptCall(t, br, "PUT", b+"/proxy/script/v1/projects/"+id+"/content",
		`{"files":[{"name":"appsscript","type":"JSON","source":"{\"timeZone\":\"UTC\"}"},{"name":"Code","type":"SERVER_JS","source":"function onB() {}"}]}`, nil); code != 200 {
		t.Fatalf("B changes the content: got %d %s", code, body)
	}
	if code, body := scriptCall(t, br, "GET", a+"/proxy/script/v1/projects/"+id+"/content", "", nil); code != 200 || !strings.Contains(body, "onB") {
		t.Errorf("A reads the content B changed next: got %d %s; want onB", code, body)
	}
	// Alternating writes: each replica's change is made on the state the other left, and
	// every one is seen by the other.
	for i, r := range []string{a, b, a, b} {
		code, body := scriptCall(t, br, "POST", r+"/proxy/script/v1/projects", fmt.Sprintf(`{"title":"round %d"}`, i), nil)
		if code != 200 {
			t.Fatalf("create %d: got %d %s", i, code, body)
		}
		other := map[string]string{a: b, b: a}[r]
		pid := between(body, `"scriptId":"`, `"`)
		if code, body := scriptCall(t, br, "GET", other+"/proxy/script/v1/projects/"+pid, "", nil); code != 200 || !strings.Contains(body, fmt.Sprintf("round %d", i)) {
			t.Errorf("round %d read on the other replica: got %d %s", i, code, body)
		}
	}

	// The cluster sandbox: A upgrades the roles, B's check says only the mapping is left.
	if code, body := scriptCall(t, br, "GET", b+"/proxy/cluster/_plugins/_security/api/_upgrade_check", "", nil); code != 200 || !strings.Contains(body, `"roles":["update_required"]`) {
		t.Fatalf("B checks the seed: got %d %s; want roles to upgrade", code, body)
	}
	if code, body := scriptCall(t, br, "POST", a+"/proxy/cluster/_plugins/_security/api/_upgrade_perform", `{"config":["roles"]}`, nil); code != 200 {
		t.Fatalf("A upgrades the roles: got %d %s", code, body)
	}
	code, body = scriptCall(t, br, "GET", b+"/proxy/cluster/_plugins/_security/api/_upgrade_check", "", nil)
	var check struct {
		UpgradeActions map[string][]string `json:"upgradeActions"`
	}
	if err := json.Unmarshal([]byte(body), &check); code != 200 || err != nil ||
		fmt.Sprint(check.UpgradeActions["roles"]) != "[no_update_required]" || fmt.Sprint(check.UpgradeActions["rolesmapping"]) != "[update_required]" {
		t.Errorf("B checks next: got %d %s; want only rolesmapping left", code, body)
	}

	// A Reset on B is seen on A.
	if code, body := scriptCall(t, br, "POST", b+"/sandbox/script/_sandbox/reset", "", nil); code != 200 {
		t.Fatalf("B resets: got %d %s", code, body)
	}
	if code, body := scriptCall(t, br, "GET", a+"/proxy/script/v1/projects/"+id, "", nil); code != 404 {
		t.Errorf("A reads after B's Reset: got %d %s; want 404", code, body)
	}
}

// TestReplicasShareLogins: access mode users, two replicas on one database: a login made on
// one is valid on the other; a logout on the other ends it on both.
func TestReplicasShareLogins(t *testing.T) {
	hash, _ := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	users := filepath.Join(t.TempDir(), "users")
	if err := os.WriteFile(users, []byte("alice:"+string(hash)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rs := replicas(t, pgtest.DB(t), "server:\n  access:\n    mode: users\n    users_file: "+users+"\n", 2)
	a, b := rs[0], rs[1]
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.PostForm(a+"/login", url.Values{"name": {"alice"}, "password": {"correct horse"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login on A: got %d; want 303", resp.StatusCode)
	}
	const search = "/proxy/entities/v1/entities:search?query=paris&limit=1"
	if resp, body := get(t, c, b+search, nil); resp.StatusCode != 200 {
		t.Fatalf("B with A's login: got %d %s; want 200", resp.StatusCode, body)
	}
	if resp, body := get(t, c, b+"/session", http.Header{"Accept": {"application/json"}}); resp.StatusCode != 200 || !strings.Contains(body, "alice") {
		t.Errorf("B's /session: got %d %s; want alice", resp.StatusCode, body)
	}
	cookies := jar.Cookies(mustURL(t, a))
	resp, err = c.Post(b+"/logout", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("logout on B: got %d; want 303", resp.StatusCode)
	}
	// The old cookie, kept by someone who copied it, is refused on A too.
	old, _ := cookiejar.New(nil)
	old.SetCookies(mustURL(t, a), cookies)
	if resp, body := get(t, &http.Client{Jar: old}, a+search, nil); resp.StatusCode != 401 {
		t.Errorf("A after the logout on B: got %d %s; want 401", resp.StatusCode, body)
	}
}
