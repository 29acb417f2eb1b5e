package e2e

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"testing"

	"loupe/server"
	"loupe/server/config"
)

// The browser tests of request bodies add a document as an API of its own (apis.<slug> in a
// loupe.yaml) against a recording upstream, fill the form, send, and compare what the upstream
// received with what the form showed. This file holds that shared setup.

// recorded is one request as a recording upstream received it.
type recorded struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// recordedPart is one part of a multipart body as the upstream read it.
type recordedPart struct {
	Name, FileName string
	Header         textproto.MIMEHeader
	Data           []byte
}

// Parts reads a multipart body's parts with Go's own reader; it fails the test when the body
// is not multipart.
func (r recorded) Parts(t *testing.T) []recordedPart {
	t.Helper()
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		t.Fatalf("%s %s: Content-Type = %q; want multipart/form-data with a boundary", r.Method, r.Path, r.Header.Get("Content-Type"))
	}
	mr := multipart.NewReader(bytes.NewReader(r.Body), params["boundary"])
	var parts []recordedPart
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return parts
		}
		if err != nil {
			t.Fatalf("reading the parts: %v", err)
		}
		data, _ := io.ReadAll(p)
		parts = append(parts, recordedPart{p.FormName(), p.FileName(), p.Header, data})
	}
}

// recordingUpstream starts an upstream that records every request it gets (one at a time: the
// channel holds one) and answers each with the JSON text answer.
func recordingUpstream(t *testing.T, answer string) (url string, got <-chan recorded) {
	t.Helper()
	ch := make(chan recorded, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		ch <- recorded{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: data}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer)
	}))
	t.Cleanup(up.Close)
	return up.URL, ch
}

// startWithAPIs starts Loupe with the settings of a loupe.yaml text (its apis: the APIs of
// your own, documents named relative to e2e/) and returns its address.
func startWithAPIs(t *testing.T, yaml string) string {
	t.Helper()
	return startServer(t, func(c *server.Config) {
		settings, err := config.Parse([]byte(yaml), "loupe.yaml", func(string) (string, bool) { return "", false })
		if err != nil {
			t.Fatal(err)
		}
		c.Settings = settings
	})
}
