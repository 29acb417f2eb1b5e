//go:build js && wasm

package fetch

import (
	"context"
	"io"
	"testing"
	"time"
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

func TestReadGivesTheBrowserATurnAfterASlice(t *testing.T) {
	res, err := Do(context.Background(), Request{URL: "data:text/plain,abc"})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b := res.Body.(*body)
	b.turnAt = time.Now().Add(-time.Second)
	before := time.Now()
	got, err := io.ReadAll(b)
	if err != nil || string(got) != "abc" {
		t.Fatalf("got %q %v", got, err)
	}
	if b.turnAt.Before(before) {
		t.Fatalf("the read did not yield: last turn %v, read started %v", b.turnAt, before)
	}
}

func TestNextTaskReturns(t *testing.T) {
	for range 3 {
		nextTask()
	}
}
