package server

import (
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"loupe/server/sandbox"
	"loupe/server/sandbox/state"
)

// scriptCall sends a script API call, with the sandbox key when it goes to /sandbox/ directly
// (a browser sends none through the proxy), and extra headers; it returns the status and body.
func scriptCall(t *testing.T, c *http.Client, method, url, body string, header http.Header) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if strings.Contains(url, "/sandbox/") {
		req.Header.Set("Authorization", "Bearer "+sandbox.DefaultKey)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// browser is a client with its own cookie jar that sends Sec-Fetch-Mode and Sec-Fetch-Site, as
// one browser.
func browser(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Transport: fetchMode{http.DefaultTransport}}
}

// fetchMode adds the Sec-Fetch-Mode and Sec-Fetch-Site headers browsers send on every request.
type fetchMode struct{ next http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (f fetchMode) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Sec-Fetch-Mode", "cors")
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	return f.next.RoundTrip(r)
}

// TestSandboxSessionsByCookie: in mode none, two browsers (cookie jars) are two sessions
// through the proxy and directly; a caller cannot pick the other's session with the internal
// header; Reset restores one browser's seed only.
func TestSandboxSessionsByCookie(t *testing.T) {
	_, ts, _ := serve(t, "", nil)
	a, b := browser(t), browser(t)
	code, body := scriptCall(t, a, "POST", ts.URL+"/proxy/script/v1/projects", `{"title":"A's project"}`, nil)
	if code != 200 {
		t.Fatalf("create: got %d %s", code, body)
	}
	id := between(body, `"scriptId":"`, `"`)
	u := ts.URL + "/proxy/script/v1/projects/" + id
	var cookie *http.Cookie
	for _, c := range a.Jar.Cookies(mustURL(t, ts.URL)) {
		if c.Name == state.CookieName {
			cookie = c
		}
	}
	if cookie == nil {
		t.Fatalf("no %s cookie after the first sandbox call", state.CookieName)
	}
	for _, p := range []string{"/proxy/script/v1/projects/", "/sandbox/script/v1/projects/"} {
		if code, _ := scriptCall(t, a, "GET", ts.URL+p+id, "", nil); code != 200 {
			t.Errorf("A reads its project at %s: got %d; want 200", p, code)
		}
		if code, _ := scriptCall(t, b, "GET", ts.URL+p+id, "", nil); code != 404 {
			t.Errorf("B reads A's project at %s: got %d; want 404", p, code)
		}
		forged := http.Header{state.Header: {"anon:" + cookie.Value}}
		if code, _ := scriptCall(t, b, "GET", ts.URL+p+id, "", forged); code != 404 {
			t.Errorf("B forges %s: %s at %s: got %d; want 404", state.Header, "A's session", p, code)
		}
	}
	if code, body := scriptCall(t, a, "GET", ts.URL+"/sandbox/script/_sandbox/reset", "", nil); code != 405 {
		t.Errorf("GET reset: got %d %s; want 405", code, body)
	}
	if code, body := scriptCall(t, b, "POST", ts.URL+"/sandbox/script/_sandbox/reset", "", nil); code != 200 {
		t.Errorf("B's reset: got %d %s; want 200", code, body)
	}
	if code, _ := scriptCall(t, a, "GET", u, "", nil); code != 200 {
		t.Errorf("A's project after B's reset: got %d; want 200", code)
	}
	if code, body := scriptCall(t, a, "POST", ts.URL+"/sandbox/script/_sandbox/reset", "", nil); code != 200 || !strings.Contains(body, `"reset":"script"`) {
		t.Errorf("A's reset: got %d %s; want 200 {\"reset\":\"script\"}", code, body)
	}
	if code, _ := scriptCall(t, a, "GET", u, "", nil); code != 404 {
		t.Errorf("A's project after A's reset: got %d; want 404", code)
	}
}

// TestSandboxSessionsByUser: in mode header each signed-in user is a session, whatever cookie
// or internal header they send.
func TestSandboxSessionsByUser(t *testing.T) {
	_, ts, _ := serve(t, "server:\n  access:\n    mode: header\n    trusted_proxies: [127.0.0.1, \"::1\"]\n", nil)
	c := browser(t)
	as := func(user string, h http.Header) http.Header {
		if h == nil {
			h = http.Header{}
		}
		h.Set("X-Forwarded-User", user)
		return h
	}
	code, body := scriptCall(t, c, "POST", ts.URL+"/proxy/script/v1/projects", `{"title":"Ada's"}`, as("ada", nil))
	if code != 200 {
		t.Fatalf("create: got %d %s", code, body)
	}
	id := between(body, `"scriptId":"`, `"`)
	for _, c := range []struct {
		user   string
		header http.Header
		want   int
	}{
		{"ada", nil, 200},
		{"bob", nil, 404},
		{"bob", http.Header{state.Header: {state.UserSession("ada")}}, 404},
	} {
		for _, p := range []string{"/proxy/script/v1/projects/", "/sandbox/script/v1/projects/"} {
			if code, _ := scriptCall(t, browser(t), "GET", ts.URL+p+id, "", as(c.user, c.header)); code != c.want {
				t.Errorf("%s (%v) at %s: got %d; want %d", c.user, c.header, p, code, c.want)
			}
		}
	}
}

// TestSandboxSessionByCredential: a client without cookies is a session by its credential:
// two calls with one key share state; another credential does not see it.
func TestSandboxSessionByCredential(t *testing.T) {
	_, ts, _ := serve(t, "", nil)
	plain := &http.Client{}
	code, body := scriptCall(t, plain, "POST", ts.URL+"/sandbox/script/v1/projects", `{}`, nil)
	if code != 200 {
		t.Fatalf("create: got %d %s", code, body)
	}
	id := between(body, `"scriptId":"`, `"`)
	if code, _ := scriptCall(t, plain, "GET", ts.URL+"/sandbox/script/v1/projects/"+id, "", nil); code != 200 {
		t.Errorf("same credential, no cookie: got %d; want 200", code)
	}
	other := http.Header{"Authorization": {"Bearer not-the-key"}}
	if code, _ := scriptCall(t, plain, "GET", ts.URL+"/proxy/script/v1/projects/"+id, "", other); code != 404 {
		t.Errorf("another credential through the proxy: got %d; want 404", code)
	}
}

// TestSandboxSessionByAddress: a program that keeps no cookies and sends no credential (curl, a
// snippet pointed at the proxy) is one session by its address, so its second call sees its
// first; it gets no cookie, and so does Node's fetch (Redocly Respect), which sends
// Sec-Fetch-Mode but no Sec-Fetch-Site. A browser without the cookie (it sends both) gets one.
func TestSandboxSessionByAddress(t *testing.T) {
	_, ts, _ := serve(t, "", nil)
	plain := &http.Client{}
	code, body := scriptCall(t, plain, "POST", ts.URL+"/proxy/script/v1/projects", `{"title":"curl's"}`, nil)
	if code != 200 {
		t.Fatalf("create: got %d %s", code, body)
	}
	id := between(body, `"scriptId":"`, `"`)
	if code, _ := scriptCall(t, plain, "GET", ts.URL+"/proxy/script/v1/projects/"+id, "", nil); code != 200 {
		t.Errorf("same program, no cookie, no credential: got %d; want 200", code)
	}
	for _, tt := range []struct {
		name       string
		header     http.Header
		wantCookie bool
	}{
		{"program", nil, false},
		{"Node's fetch", http.Header{"Sec-Fetch-Mode": {"cors"}, "User-Agent": {"node"}}, false},
		{"browser", http.Header{"Sec-Fetch-Mode": {"cors"}, "Sec-Fetch-Site": {"same-origin"}}, true},
	} {
		req, _ := http.NewRequest("GET", ts.URL+"/proxy/script/v1/projects/"+id, nil)
		for k, v := range tt.header {
			req.Header[k] = v
		}
		resp, err := plain.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got := false
		for _, c := range resp.Cookies() {
			got = got || c.Name == state.CookieName
		}
		if got != tt.wantCookie {
			t.Errorf("%s: got a sandbox cookie %v; want %v", tt.name, got, tt.wantCookie)
		}
	}
}

// between returns the text of s between the first from and the next to.
func between(s, from, to string) string {
	_, rest, _ := strings.Cut(s, from)
	v, _, _ := strings.Cut(rest, to)
	return v
}

// mustURL parses s.
func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestQueryValue: queryValue reads a raw query as url.ParseQuery and Values.Get do, for tricky
// queries and for random ones made of their pieces.
func TestQueryValue(t *testing.T) {
	tests := []string{
		"", "key=a", "key=", "key", "key=a&key=b", "key=&key=b", "q=1&key=a%2Fb", "k%65y=x", "k%65y=x&key=y",
		"key=a;b&key=c", "key;x=1&key=2", "key=%zz&key=ok", "%zz=1&key=2", "ke+y=1&key=2", "key+=1", "key=a+b",
		"access_token=t", "access%5Ftoken=u&key=v", "&&key=1&", "key=%&key=2", "kkey=1&keyy=2&key=3",
	}
	pieces := []string{"key", "k%65y", "access_token", "q", "=", "=", "&", "&", ";", "%", "%2", "%41", "+", "a", "b"}
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		tests = append(tests, b.String())
	}
	for _, raw := range tests {
		q, _ := url.ParseQuery(raw)
		for _, name := range []string{"key", "access_token"} {
			if got, want := queryValue(raw, name), q.Get(name); got != want {
				t.Fatalf("queryValue(%q, %q): got %q; want %q (url.ParseQuery)", raw, name, got, want)
			}
		}
	}
}
