package script

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"loupe/server/internal/clientip"
	"loupe/server/sandbox/state"
)

// caller sends r to h as the sandbox session and client address the Loupe server would name.
type caller struct{ session, client string }

// serve sends r as a.
func (a caller) serve(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	ctx := state.WithSession(r.Context(), a.session)
	if a.client != "" {
		ctx = clientip.With(ctx, a.client)
	}
	return serve(h, r.WithContext(ctx))
}

// consent opens a consent page as a and returns its request id.
func (a caller) consent(t *testing.T, h http.Handler) string {
	t.Helper()
	w := a.serve(h, httptest.NewRequest("GET", "/oauth/authorize?"+authorizeQuery(scopeProjects, nil).Encode(), nil))
	m := requestIDPattern.FindStringSubmatch(w.Body.String())
	if w.Code != http.StatusOK || m == nil {
		t.Fatalf("consent page: got %d %s", w.Code, w.Body)
	}
	return m[1]
}

// answer answers the consent page id as a and returns the code.
func (a caller) answer(t *testing.T, h http.Handler, id string) string {
	t.Helper()
	r := httptest.NewRequest("POST", "/oauth/authorize", strings.NewReader(url.Values{"request": {id}, "decision": {"allow"}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := a.serve(h, r)
	loc, _ := url.Parse(w.Header().Get("Location"))
	if w.Code != http.StatusFound || loc == nil || loc.Query().Get("code") == "" {
		t.Fatalf("allow: got %d %s", w.Code, w.Body)
	}
	return loc.Query().Get("code")
}

// token redeems code (or refreshes, grant "refresh_token") as a.
func (a caller) token(h http.Handler, grant, value string) (int, string, string) {
	f := url.Values{"grant_type": {grant}}
	if grant == "authorization_code" {
		f.Set("code", value)
		f.Set("redirect_uri", oauthCallback)
		f.Set("code_verifier", testVerifier)
	} else {
		f.Set("refresh_token", value)
	}
	r := httptest.NewRequest("POST", "/oauth/token", strings.NewReader(f.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.SetBasicAuth(SandboxClientID, SandboxClientSecret)
	w := a.serve(h, r)
	at := regexpField(w.Body.String(), "access_token")
	return w.Code, at, regexpField(w.Body.String(), "refresh_token")
}

// signIn runs the whole flow as a and returns the access and refresh tokens.
func (a caller) signIn(t *testing.T, h http.Handler) (string, string) {
	t.Helper()
	code, at, rt := a.token(h, "authorization_code", a.answer(t, h, a.consent(t, h)))
	if code != 200 {
		t.Fatalf("exchange: %d", code)
	}
	return at, rt
}

// regexpField is a JSON string field of body.
func regexpField(body, name string) string {
	_, rest, ok := strings.Cut(body, `"`+name+`":"`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// TestConsentPagesKeepNothing: ten times maxLive consent pages opened leave no table on the
// server; the first still answers, once.
func TestConsentPagesKeepNothing(t *testing.T) {
	defer func(n int) { maxLive = n }(maxLive)
	maxLive = 20
	h, _ := newOAuthTest(t, Options{})
	anon := caller{"anon:reader", "203.0.113.5"}
	first := anon.consent(t, h)
	for range 10 * maxLive {
		anon.consent(t, h)
	}
	if code := anon.answer(t, h, first); code == "" {
		t.Fatal("the first consent page does not answer")
	}
	r := httptest.NewRequest("POST", "/oauth/authorize", strings.NewReader(url.Values{"request": {first}, "decision": {"allow"}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if w := anon.serve(h, r); w.Code != http.StatusBadRequest {
		t.Errorf("the same consent answered twice: got %d; want 400", w.Code)
	}
	changed := first[:len(first)-2] + "AA"
	r = httptest.NewRequest("POST", "/oauth/authorize", strings.NewReader(url.Values{"request": {changed}, "decision": {"allow"}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if w := anon.serve(h, r); w.Code != http.StatusBadRequest {
		t.Errorf("a changed request id: got %d; want 400", w.Code)
	}
}

// TestGrantFlood: ten times maxLive anonymous sign-ins, from one client and from as many
// addresses, leave a signed-in user's grant and access token working, another client's grant
// from before the flood (one client's flood), a user who was on the consent page able to
// finish, and the tables at their bounds.
func TestGrantFlood(t *testing.T) {
	defer func(n int) { maxLive = n }(maxLive)
	maxLive = 50
	h, _ := newOAuthTest(t, Options{})
	server := h.(*handler).as
	user := caller{state.UserSession("ada"), "198.51.100.1"} // the Loupe server's token calls for ada
	userAccess, userRefresh := user.signIn(t, h)
	other := caller{"anon:other", "198.51.100.2"}
	_, otherRefresh := other.signIn(t, h)
	midway := caller{"anon:midway", "198.51.100.3"}
	page := midway.consent(t, h)

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 10 * maxLive { // one client
		caller{fmt.Sprintf("anon:f%d", i), "203.0.113.66"}.signIn(t, h)
	}
	if n := server.refresh.ClientLen("203.0.113.66"); n > perOwner {
		t.Errorf("one client holds %d grants; want at most %d", n, perOwner)
	}
	if code, _, _ := other.token(h, "refresh_token", otherRefresh); code != 200 {
		t.Errorf("another client's grant after one client's flood: refresh got %d; want 200", code)
	}
	for i := range 10 * maxLive { // many addresses
		caller{fmt.Sprintf("anon:m%d", i), fmt.Sprintf("100.64.%d.%d", i/250, i%250+1)}.signIn(t, h)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	st, at := server.refresh.Stats(), server.access.Stats()
	t.Logf("after %d anonymous sign-ins: %d anonymous and %d signed-in grants, %d access tokens; heap %+.1f KiB",
		20*maxLive, st.Anonymous, st.Protected, at.Anonymous+at.Protected, (float64(after.HeapAlloc)-float64(before.HeapAlloc))/1024)
	if st.Anonymous > maxLive || at.Anonymous > accessPerGrant*maxLive {
		t.Errorf("grants %+v, access tokens %+v; want at most %d anonymous grants, %d access tokens", st, at, maxLive, accessPerGrant*maxLive)
	}
	if code, _ := callAuth(t, h, "GET", "/v1/projects/"+SeedScriptID, "", "Bearer "+userAccess); code != 200 {
		t.Errorf("the signed-in user's access token after the floods: got %d; want 200", code)
	}
	if code, _, _ := user.token(h, "refresh_token", userRefresh); code != 200 {
		t.Errorf("the signed-in user's refresh after the floods: got %d; want 200", code)
	}
	if code, _, _ := midway.token(h, "authorization_code", midway.answer(t, h, page)); code != 200 {
		t.Errorf("the user who was on the consent page: exchange got %d; want 200", code)
	}
	if _, rt := (caller{"anon:new", "192.0.2.9"}).signIn(t, h); rt == "" {
		t.Error("a new visitor after the floods got no grant")
	}
}
