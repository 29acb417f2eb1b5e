package inproc

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"
)

// TestPipeWriteReturnsBeforeTheRead checks that a write returns without a reader, that a read
// takes everything written so far, and that the end and its error come after the bytes.
func TestPipeWriteReturnsBeforeTheRead(t *testing.T) {
	p := newPipe()
	for _, ev := range []string{"data: 1\n\n", "data: 2\n\n"} {
		if n, err := p.Write([]byte(ev)); n != len(ev) || err != nil {
			t.Fatalf("Write(%q): got %d, %v; want %d, nil", ev, n, err, len(ev))
		}
	}
	buf := make([]byte, 64)
	n, err := p.Read(buf)
	if got, want := string(buf[:n]), "data: 1\n\ndata: 2\n\n"; got != want || err != nil {
		t.Fatalf("Read: got %q, %v; want %q, nil", got, err, want)
	}
	broken := errors.New("handler panicked")
	p.Write([]byte("tail"))
	p.CloseWrite(broken)
	if got, err := io.ReadAll(p); string(got) != "tail" || err != broken {
		t.Fatalf("ReadAll after CloseWrite: got %q, %v; want %q, %v", got, err, "tail", broken)
	}
}

// TestPipeBackpressure checks that a writer more than maxPending bytes ahead waits for the
// reader, and that every byte arrives in order.
func TestPipeBackpressure(t *testing.T) {
	p := newPipe()
	data := bytes.Repeat([]byte("0123456789abcdef"), 3*maxPending/16+7)
	wrote := make(chan error, 1)
	go func() {
		_, err := p.Write(data)
		p.CloseWrite(nil)
		wrote <- err
	}()
	select {
	case err := <-wrote:
		t.Fatalf("a write of %d bytes returned (%v) with nothing read; want it to wait past %d", len(data), err, maxPending)
	case <-time.After(50 * time.Millisecond):
	}
	got, err := io.ReadAll(p)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadAll: got %d bytes, %v; want the %d written", len(got), err, len(data))
	}
	if err := <-wrote; err != nil {
		t.Fatalf("Write: got %v; want nil", err)
	}
}

// TestPipeCloseRead checks that once the reader closed the pipe, a waiting write and later
// writes fail with the reader's error, and reads fail too.
func TestPipeCloseRead(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"closed", nil, io.ErrClosedPipe},
		{"caller gone", errors.New("inproc: context canceled"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want == nil {
				want = tt.err
			}
			p := newPipe()
			blocked := make(chan error, 1)
			go func() {
				_, err := p.Write(make([]byte, 2*maxPending))
				blocked <- err
			}()
			time.Sleep(10 * time.Millisecond)
			p.CloseRead(tt.err)
			if err := <-blocked; err != want {
				t.Errorf("waiting Write: got %v; want %v", err, want)
			}
			if _, err := p.Write([]byte("x")); err != want {
				t.Errorf("Write after CloseRead: got %v; want %v", err, want)
			}
			if _, err := p.Read(make([]byte, 8)); err != io.ErrClosedPipe {
				t.Errorf("Read after CloseRead: got %v; want %v", err, io.ErrClosedPipe)
			}
		})
	}
}
