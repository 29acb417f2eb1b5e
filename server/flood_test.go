package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	servercatalog "loupe/server/catalog"
	"loupe/server/config"
	"loupe/server/sandbox/script"
)

// flooder sends requests straight to a server's handler, in-process, as many clients behind
// the trusted proxy 10.0.0.1 (X-Forwarded-For) or as one client of its own.
type flooder struct {
	t   *testing.T
	srv *Server
}

// send serves one request from client (behind the trusted proxy when viaProxy) and returns the
// status.
func (f flooder) send(method, target, body, client string, viaProxy bool, header http.Header) int {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.RemoteAddr = client + ":4000"
	if viaProxy {
		r.RemoteAddr = "10.0.0.1:4000"
		r.Header.Set("X-Forwarded-For", client)
	}
	for k, v := range header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	f.srv.ServeHTTP(w, r)
	return w.Code
}

// addr is the ith of many client addresses.
func addr(i int) string { return fmt.Sprintf("100.64.%d.%d", i/250%250, i%250+1) }

// heap is the live heap after a collection, once no catalog is being compressed in the
// background (see heapNow).
func heap() uint64 {
	servercatalog.WaitCompressed()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// floodSettings is a configuration behind the trusted proxy 10.0.0.0/8 with small tables (100
// live sandbox sessions, 5 per client), so that ten times their size is quick.
func floodSettings(t *testing.T, extra string) *config.Config {
	t.Helper()
	c, err := config.Parse([]byte("server:\n  access:\n    trusted_proxies: [10.0.0.0/8]\n"+extra+
		"  limits: {rate: -1}\n  sandbox: {max_sessions: 100, max_sessions_per_client: 5}\n"), "flood.yaml", func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestFloodsLeaveEveryoneWorking floods the tables a caller without an account can grow, ten
// times their size from one client and from as many addresses behind the trusted proxy, in
// access mode none (sandbox sessions by writes and by reads, sign-ins started, consent pages
// opened) and in mode users (wrong passwords): a new visitor, a signed-in user and a user in
// the middle of a sign-in all keep working, and the tables stay at their bounds.
func TestFloodsLeaveEveryoneWorking(t *testing.T) {
	t.Run("access mode none", func(t *testing.T) {
		e := newOAuthEnv(t, time.Hour, floodSettings(t, ""))
		f := flooder{t, e.srv}
		if code, _, body := e.signIn("allow", scopeProject, scopeEmail); code != 200 {
			t.Fatalf("the signed-in user's sign-in: %d %.300s", code, body)
		}
		mid := e.browser() // a second browser on the same server
		q := url.Values{"api": {"script"}, "scope": {scopeRO}, "return": {"/script/projects.get"}}
		code, consentURL, consent := mid.do("GET", "/oauth/start?"+q.Encode(), nil)
		request := consentRequest.FindStringSubmatch(consent)
		if code != 200 || request == nil {
			t.Fatalf("the user mid-sign-in never reached the consent page: %d", code)
		}

		before := heap()
		browser := http.Header{"Sec-Fetch-Mode": {"cors"}, "Content-Type": {"application/json"}}
		item := `{"name":"flood"}`
		for i := range 1000 { // one client: a new browser session each time
			f.send("GET", "/sandbox/pagination/page-number/items/?page_size=1", "", "203.0.113.9", false, browser)
			f.send("POST", "/sandbox/pagination/items/", item, "203.0.113.9", false, browser)
			f.send("GET", "/oauth/start?api=script&scope="+url.QueryEscape(scopeRO), "", "203.0.113.9", false, nil)
			if i%10 == 0 {
				f.send("GET", "/sandbox/script/oauth/authorize?"+authorizeQuery(e.ts.URL), "", "203.0.113.9", false, nil)
			}
		}
		for i := range 1000 { // as many addresses behind the proxy
			f.send("GET", "/sandbox/pagination/page-number/items/?page_size=1", "", addr(i), true, browser)
			f.send("POST", "/sandbox/pagination/items/", item, addr(i), true, browser)
			f.send("GET", "/oauth/start?api=script&scope="+url.QueryEscape(scopeRO), "", addr(i), true, nil)
		}
		after := heap()
		st := e.srv.registry.Stats()
		t.Logf("after 6,100 flooding calls: %d live sandbox sessions (%d anonymous, bound 100; %d evicted), live heap %.1f -> %.1f MiB",
			st.Live.Anonymous+st.Live.Protected, st.Live.Anonymous, st.Live.Evicted, float64(before)/(1<<20), float64(after)/(1<<20))
		if st.Live.Anonymous > 100 {
			t.Errorf("live anonymous sessions: %d; want at most 100", st.Live.Anonymous)
		}
		if grown := int64(after) - int64(before); grown > 64<<20 {
			t.Errorf("the heap grew %d MiB; want it bounded by the tables", grown>>20)
		}

		if code, body := e.call("GET", "/proxy/script/v1/projects/"+script.SeedScriptID); code != 200 {
			t.Errorf("the signed-in user after the flood: %d %.200s; want 200 with their grant", code, body)
		}
		if code, at, body := mid.do("POST", consentURL, url.Values{"request": {request[1]}, "decision": {"allow"}}); code != 200 || !strings.HasSuffix(at, "/script/projects.get") {
			t.Errorf("the user mid-sign-in after the flood: %d at %s %.200s; want signed in and back on the page", code, at, body)
		}
		visitor := e.browser()
		if code, body := visitor.json("POST", "/proxy/pagination/items/", `{"name":"new visitor"}`); code != 201 {
			t.Errorf("a new visitor's change after the flood: %d %.200s; want it served", code, body)
		}
		if code, _, body := visitor.signIn("allow", scopeRO); code != 200 {
			t.Errorf("a new visitor's sign-in after the flood: %d %.200s", code, body)
		}
	})

	t.Run("access mode users", func(t *testing.T) {
		hash, _ := bcrypt.GenerateFromPassword([]byte("right"), bcrypt.MinCost)
		users := filepath.Join(t.TempDir(), "users")
		if err := os.WriteFile(users, []byte("ada:"+string(hash)+"\nbob:"+string(hash)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		e := newOAuthEnv(t, time.Hour, floodSettings(t, "    mode: users\n    users_file: "+users+"\n"))
		f := flooder{t, e.srv}
		login := func(env *oauthEnv, name string) int {
			code, _, _ := env.do("POST", "/login", url.Values{"name": {name}, "password": {"right"}, "next": {"/"}})
			return code
		}
		if code := login(e, "ada"); code != 200 {
			t.Fatalf("ada's login: %d", code)
		}
		code, created := e.json("POST", "/proxy/pagination/items/", `{"name":"ada's item"}`)
		id := regexp.MustCompile(`"id":(\d+)`).FindStringSubmatch(created)
		if code != 201 || id == nil {
			t.Fatalf("ada's change before the flood: %d %.200s", code, created)
		}
		mid := e.browser()
		if code := login(mid, "bob"); code != 200 {
			t.Fatalf("bob's login: %d", code)
		}
		q := url.Values{"api": {"script"}, "scope": {scopeRO}, "return": {"/script/projects.get"}}
		_, consentURL, consent := mid.do("GET", "/oauth/start?"+q.Encode(), nil)
		request := consentRequest.FindStringSubmatch(consent)
		if request == nil {
			t.Fatal("bob never reached the consent page")
		}

		before := heap()
		form := "name=ada&password=wrong&next=%2F"
		header := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
		for i := range 1000 {
			f.send("POST", "/login", form, "203.0.113.9", false, header)
			f.send("POST", "/login", "name=nobody"+fmt.Sprint(i)+"&password=wrong", addr(i), true, header)
			f.send("POST", "/sandbox/pagination/items/", `{"name":"x"}`, addr(i), true, http.Header{"Content-Type": {"application/json"}})
		}
		after := heap()
		t.Logf("after 3,000 flooding calls: live heap %.1f -> %.1f MiB", float64(before)/(1<<20), float64(after)/(1<<20))
		if grown := int64(after) - int64(before); grown > 64<<20 {
			t.Errorf("the heap grew %d MiB; want it bounded by the tables", grown>>20)
		}

		if code, body := e.json("DELETE", "/sandbox/pagination/items/"+id[1]+"/", ""); code != 204 {
			t.Errorf("ada, signed in, deleting her item after the flood: %d %.200s; want 204 (her session and change kept)", code, body)
		}
		if code, at, _ := mid.do("POST", consentURL, url.Values{"request": {request[1]}, "decision": {"allow"}}); code != 200 || !strings.HasSuffix(at, "/script/projects.get") {
			t.Errorf("bob mid-sign-in after the flood: %d at %s", code, at)
		}
		visitor := e.browser()
		if code := login(visitor, "bob"); code != 200 {
			t.Errorf("a new visitor logging in as bob after the flood: %d; want in", code)
		}
	})
}

// authorizeQuery is a valid authorization request to the script sandbox for Loupe's client.
func authorizeQuery(origin string) string {
	return url.Values{"client_id": {script.SandboxClientID}, "redirect_uri": {origin + "/oauth/callback"}, "response_type": {"code"},
		"scope": {scopeRO}, "state": {"s"}, "code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}, "code_challenge_method": {"S256"}}.Encode()
}

// browser is another browser (its own cookies) on e's server.
func (e *oauthEnv) browser() *oauthEnv {
	jar, _ := cookiejar.New(nil)
	return &oauthEnv{t: e.t, srv: e.srv, ts: e.ts, c: &http.Client{Jar: jar}}
}

// json sends a JSON body (none when "") from e's browser and returns the status and body.
func (e *oauthEnv) json(method, path, body string) (int, string) {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.ts.URL+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := e.c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// call sends a request from e's browser and returns the status and body.
func (e *oauthEnv) call(method, path string) (int, string) {
	code, _, body := e.do(method, path, nil)
	return code, body
}
