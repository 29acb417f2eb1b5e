//go:build !js

package fetch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestDo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Echo", r.Header.Get("X-In"))
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte(r.Method + " " + r.URL.RequestURI() + " " + string(b)))
	}))
	defer srv.Close()

	t.Run("it sends method, headers and body and returns status, headers and body", func(t *testing.T) {
		res, err := Do(context.Background(), Request{Method: "POST", URL: srv.URL + "/a?b=1",
			Headers: []Header{{"X-In", "hello"}}, Body: []byte(`{"x":1}`)})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		got, _ := io.ReadAll(res.Body)
		if res.Status != 418 || res.Header("x-echo") != "hello" || string(got) != `POST /a?b=1 {"x":1}` {
			t.Fatalf("got %d %q %q", res.Status, res.Header("x-echo"), got)
		}
	})
	t.Run("an empty method means GET", func(t *testing.T) {
		res, err := Do(context.Background(), Request{URL: srv.URL + "/"})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if string(got) != "GET / " {
			t.Fatalf("got %q", got)
		}
	})
}

func TestDoStreamsAndCancels(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("first"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)

	ctx, cancel := context.WithCancel(context.Background())
	res, err := Do(ctx, Request{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, err := res.Body.Read(buf)
	if err != nil || string(buf[:n]) != "first" {
		t.Fatalf("first chunk: %q %v", buf[:n], err)
	}
	done := make(chan error, 1)
	go func() { _, err := res.Body.Read(buf); done <- err }()
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("read after cancel succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling ctx did not end the read")
	}
}
