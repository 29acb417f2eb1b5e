//go:build js && wasm

package fetch

import (
	"context"
	"io"
	"testing"
)

func TestDoReadsADataURL(t *testing.T) {
	res, err := Do(context.Background(), Request{URL: "data:application/json,%7B%22a%22%3A1%7D"})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != 200 || string(got) != `{"a":1}` || res.Header("Content-Type") != "application/json" {
		t.Fatalf("got %d %q %q", res.Status, got, res.Header("content-type"))
	}
}

func TestDoFailsOnABadURL(t *testing.T) {
	if _, err := Do(context.Background(), Request{URL: "http://[::1"}); err == nil {
		t.Fatal("want an error")
	}
}

func TestDoAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Do(ctx, Request{URL: "data:,x"}); err == nil {
		t.Fatal("want an error")
	}
}
