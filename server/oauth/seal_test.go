package oauth

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSealedSignInRoundTrips(t *testing.T) {
	s := newSealer(nil)
	now := time.Unix(1e9, 0)
	pd := &pending{user: "ada", api: "script", verifier: "v-123", scopes: []string{"a", "b"}, redirect: "http://x/oauth/callback", back: "/script", created: now}
	v, err := s.seal("st-1", pd)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(v, "v-123") || strings.Contains(v, "ada") {
		t.Errorf("the cookie shows what it seals: %s", v)
	}
	state, got, err := s.open(v, now.Add(time.Minute))
	if err != nil || state != "st-1" || got.user != "ada" || got.verifier != "v-123" || got.back != "/script" || len(got.scopes) != 2 {
		t.Fatalf("open: got %q %+v %v; want the sign-in back", state, got, err)
	}
	tampered := []byte(v)
	tampered[len(tampered)/2] ^= 1
	for name, tc := range map[string]struct {
		value string
		at    time.Time
		s     *sealer
	}{
		"changed":            {string(tampered), now, s},
		"too old":            {v, now.Add(stateTTL + time.Second), s},
		"another server":     {v, now, newSealer(nil)},
		"garbage":            {"not base64!", now, s},
		"short":              {"AAAA", now, s},
		"from the future":    {v, now.Add(-time.Hour), s},
		"empty":              {"", now, s},
		"too long for a jar": {strings.Repeat("A", maxSealed+1), now, s},
	} {
		if _, _, err := tc.s.open(tc.value, tc.at); err == nil {
			t.Errorf("%s: opened; want refused", name)
		}
	}
}

// FuzzOpenSealed: any state cookie a stranger sends is refused or opens to a sign-in, without a
// panic; only what the server sealed opens.
func FuzzOpenSealed(f *testing.F) {
	s := newSealer(nil)
	now := time.Unix(1e9, 0)
	good, _ := s.seal("st", &pending{user: "u", api: "a", created: now})
	f.Add(good)
	f.Add("")
	f.Add("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
	f.Fuzz(func(t *testing.T, v string) {
		state, pd, err := s.open(v, now)
		if err == nil && (pd == nil || state == "" || v != good) {
			t.Fatalf("%q opened to %q %+v; want only the sealed value to open", v, state, pd)
		}
	})
}

// TestSignInFlood: ten thousand sign-ins started from one client and as many from distinct
// addresses keep nothing on the server (the sign-ins live in their browsers' cookies): a user
// who started before the flood finishes after it, a signed-in user stays signed in, and a new
// visitor starts and finishes a sign-in.
func TestSignInFlood(t *testing.T) {
	e := newEnv(t)
	signedIn := newEnv(t)
	signedIn.svc = e.svc // the same service, a second browser
	if code, _, body := e.get(t, "/oauth/start?api=script&scope=s.projects"); code != 200 {
		t.Fatalf("a signed-in user: %d %s", code, body)
	}
	noFollow := &http.Client{Jar: signedIn.browser.Jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noFollow.Get(e.loupe.URL + "/oauth/start?api=script&scope=s.readonly")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	consent := res.Header.Get("Location") // the user mid-sign-in, at the provider's consent page

	e.svc.opts.Logger = slog.New(slog.DiscardHandler) // the test's log would grow, not the service
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 20_000 {
		r := httptest.NewRequest("GET", "/oauth/start?api=script&scope=s.projects", nil)
		if i >= 10_000 {
			r.RemoteAddr = "10.0.0.1:1"
			r.Header.Set("X-Forwarded-For", "100.64."+strconv.Itoa(i/250%250)+"."+strconv.Itoa(i%250+1))
		}
		w := httptest.NewRecorder()
		e.svc.ServeHTTP(w, r)
		if w.Code != http.StatusSeeOther {
			t.Fatalf("start %d: got %d; want 303 (no sign-in is refused)", i, w.Code)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("20,000 sign-ins started: the service's heap %+.1f KiB (it keeps no table of them)", (float64(after.HeapAlloc)-float64(before.HeapAlloc))/1024)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 4<<20 {
		t.Errorf("heap grew %d bytes over 20,000 sign-ins; want it flat", grown)
	}

	res, err = noFollow.Get(consent) // the provider approves and sends the browser back
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	res, err = signedIn.browser.Get(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("the user mid-sign-in after the flood: got %d; want back on the page", res.StatusCode)
	}
	if st, _ := e.status(t); !st.SignedIn {
		t.Error("the signed-in user is no longer signed in after the flood")
	}
	visitor := newEnv(t)
	visitor.svc = e.svc
	if code, _, body := visitor.get(t, "/oauth/start?api=script&scope=s.readonly"); code != 200 {
		t.Errorf("a new visitor after the flood: %d %s", code, body)
	}
}
