package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
)

// leakSecrets gives every API a credential with the characters encoders rewrite (/ + = % and
// quotes), each sent the way its API expects (docs and pagination, which send none by default,
// as a custom header and as Basic auth).
var leakSecrets = map[string]struct{ secret, yaml string }{
	"chat":       {`ch/at+K=ey%2F"q'1<&>`, ""},
	"script":     {`sc/ri+pt=K%2f"q'2`, ""},
	"entities":   {`en/ti+ti=es%41"q'3&x=y`, ""},
	"reports":    {`re/po+rt=s%"q'4 #`, ""},
	"cluster":    {`cl/us+te=r%2F"q'5`, ""},
	"docs":       {`do/cs+K=ey%25"q'6`, "      send: header\n      name: X-Docs-Token\n      prefix: 'Token '\n"},
	"pagination": {`ada:pa/gi+na=te%"q'7`, "      send: basic\n"},
}

// leakForms are the forms a secret takes when an upstream echoes it.
func leakForms(s string) []string {
	lower := func(e string) string {
		b := []byte(e)
		for i := 0; i+2 < len(b); i++ {
			if b[i] == '%' {
				b[i+1], b[i+2] = strings.ToLower(string(b[i+1]))[0], strings.ToLower(string(b[i+2]))[0]
			}
		}
		return string(b)
	}
	js, _ := json.Marshal(s)
	return []string{s, string(js[1 : len(js)-1]), strings.ReplaceAll(string(js[1:len(js)-1]), "/", `\/`),
		url.QueryEscape(s), lower(url.QueryEscape(s)), url.PathEscape(s), lower(url.PathEscape(s)),
		base64.StdEncoding.EncodeToString([]byte(s)), base64.URLEncoding.EncodeToString([]byte(s))}
}

// TestNoCredentialLeaks: an upstream for every API that echoes the whole request (every
// header, the raw and the decoded query), re-encoded every common way, in a 103's headers, the
// answer's headers, its body, an event stream written a byte at a time, and trailers: no form
// of any API's secret reaches the client, and none is in the logs.
func TestNoCredentialLeaks(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var seen []string
		for _, vs := range r.Header {
			seen = append(seen, vs...)
		}
		seen = append(seen, r.URL.RawQuery, r.URL.String())
		for _, vs := range r.URL.Query() {
			seen = append(seen, vs...)
		}
		if u, p, ok := r.BasicAuth(); ok {
			seen = append(seen, u+":"+p, p)
		}
		sort.Strings(seen)
		var echo []string
		for _, s := range seen {
			echo = append(echo, leakForms(s)...)
		}
		h := w.Header()
		for i, e := range echo {
			h.Set(fmt.Sprintf("X-Early-%d", i), strings.ReplaceAll(e, "\n", " "))
		}
		w.WriteHeader(http.StatusEarlyHints)
		clear(h)
		for i, e := range echo {
			h.Set(fmt.Sprintf("X-Echo-%d", i), e)
		}
		h.Set("Trailer", "X-Trailer-Echo")
		if strings.HasSuffix(r.URL.Path, "/stream") {
			h.Set("Content-Type", "text/event-stream")
			rc := http.NewResponseController(w)
			for _, e := range echo {
				ev := "data: " + e + "\n\n"
				for j := 0; j < len(ev); j++ {
					io.WriteString(w, ev[j:j+1])
					rc.Flush()
				}
			}
		} else {
			h.Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"echo": echo})
			fmt.Fprintf(w, "%s\n", strings.Join(echo, "\n"))
		}
		h.Set("X-Trailer-Echo", strings.Join(echo, " "))
		h.Set(http.TrailerPrefix+"X-Undeclared-Echo", strings.Join(echo, " "))
	}))
	defer up.Close()
	var cfg strings.Builder
	cfg.WriteString("apis:\n")
	for slug, s := range leakSecrets {
		fmt.Fprintf(&cfg, "  %s:\n    base_url: %s/%s\n    allow_undocumented: true\n    credential:\n      value: '%s'\n%s", slug, up.URL, slug,
			strings.ReplaceAll(s.secret, "'", "''"), s.yaml)
	}
	_, ts, logs := serve(t, cfg.String(), nil)

	var mu sync.Mutex
	var early strings.Builder
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(&early, "%d %v\n", code, h)
		return nil
	}}
	checked := 0
	for slug := range leakSecrets {
		for _, path := range []string{"/v1/echo?q=1", "/v1/stream"} {
			req, _ := http.NewRequest("GET", ts.URL+"/proxy/"+slug+path, nil)
			req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatalf("%s%s: %v", slug, path, err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || len(body) < 100 {
				t.Fatalf("%s%s: got %d %.200s; want the echo", slug, path, resp.StatusCode, body)
			}
			var all strings.Builder
			resp.Header.Write(&all)
			resp.Trailer.Write(&all)
			all.Write(body)
			mu.Lock()
			all.WriteString(early.String())
			mu.Unlock()
			for other, s := range leakSecrets {
				for _, f := range leakForms(s.secret) {
					checked++
					if strings.Contains(all.String(), f) {
						t.Errorf("%s%s: %s's secret passed as %q", slug, path, other, f)
					}
				}
			}
		}
	}
	for slug, s := range leakSecrets {
		for _, f := range leakForms(s.secret) {
			if strings.Contains(logs.String(), f) {
				t.Errorf("logs: %s's secret as %q", slug, f)
			}
		}
	}
	t.Logf("%d (answer, secret form) pairs checked", checked)
}
