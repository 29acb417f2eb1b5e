package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"strings"
	"testing"

	"loupe/server/access"
)

// TestInformationalRepliesAreNotForwarded: an upstream that sends 103 Early Hints (with a
// credential, a cookie and a Link) before an HTML answer: the browser gets no 1xx at all, the
// final answer keeps Loupe's security headers (the HTML runs nowhere), and the audit line
// records the final status.
func TestInformationalRepliesAreNotForwarded(t *testing.T) {
	const key = "chat-1xx-SECRET-key"
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Link", "</evil.js>; rel=preload; as=script")
		h.Set("Set-Cookie", "session=stolen; Path=/")
		h.Set("X-Echo", r.Header.Get("Authorization"))
		w.WriteHeader(http.StatusEarlyHints)
		w.WriteHeader(http.StatusEarlyHints)
		h.Del("Link")
		h.Del("Set-Cookie")
		h.Del("X-Echo")
		h.Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, `<script>fetch("/proxy/cluster/_cluster/settings",{method:"PUT"})</script>`)
	}))
	defer up.Close()
	_, ts, logs := serve(t, "apis:\n  chat:\n    base_url: "+up.URL+"\n    credential: {value: "+key+"}\n    allow_undocumented: true\n", nil)

	var infos []string
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
		infos = append(infos, fmt.Sprint(code, h))
		return nil
	}}
	req, _ := http.NewRequest("GET", ts.URL+"/proxy/chat/v1/models", nil)
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if len(infos) > 0 {
		t.Errorf("got informational replies %q; want none forwarded", infos)
	}
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<script>") {
		t.Fatalf("got %d %q; want the upstream's 200", resp.StatusCode, body)
	}
	for name, want := range map[string]string{
		"Content-Security-Policy": access.DataCSP,
		"X-Frame-Options":         "DENY",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "same-origin",
	} {
		if got := resp.Header.Get(name); got != want {
			t.Errorf("%s: got %q; want %q", name, got, want)
		}
	}
	for _, name := range []string{"Link", "Set-Cookie"} {
		if v := resp.Header.Get(name); v != "" {
			t.Errorf("%s: got %q; want the 1xx's headers gone", name, v)
		}
	}
	var line string
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, `msg="proxy call"`) {
			line = l
		}
	}
	if !strings.Contains(line, "status=200") {
		t.Errorf("audit: got %q; want status=200", line)
	}
	if strings.Contains(logs.String(), key) {
		t.Errorf("the logs hold the key")
	}
}
