package inproc

import (
	"io"
	"sync"
)

// maxPending is how many written bytes a pipe holds before the writer waits for the reader.
const maxPending = 32 << 10

// pipe carries a response body from the handler (the writer) to the caller (the reader). A
// write copies its bytes into the pipe and returns, as a write to a socket returns once the
// kernel holds them; a read takes everything written so far. Only a writer more than
// maxPending bytes ahead waits.
//
// It replaced io.Pipe, whose every write waited until the reader had taken all of it: an event
// stream then cost two goroutine hand-offs per event (the reader woken, then the writer), and
// through the proxy 2,000 chat streams spent an eighth of their CPU time in io.Pipe's selects.
type pipe struct {
	mu      sync.Mutex
	cond    sync.Cond // signalled when bytes arrive, are taken, or a side closes
	buf     []byte    // written, not yet read: buf[off:]
	off     int
	werr    error // the writer closed: what reads return once buf is empty (io.EOF when done)
	rerr    error // the reader closed: what writes return
	rclosed bool
}

func newPipe() *pipe {
	p := &pipe{}
	p.cond.L = &p.mu
	return p
}

// Write copies b into the pipe, waiting while maxPending bytes are unread. It fails once the
// reader closed the pipe (with the reader's error, or io.ErrClosedPipe) or the writer did.
func (p *pipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for len(b) > 0 {
		for len(p.buf)-p.off >= maxPending && !p.rclosed && p.werr == nil {
			p.cond.Wait()
		}
		switch {
		case p.rclosed:
			return n, p.rerr
		case p.werr != nil:
			return n, io.ErrClosedPipe
		}
		if p.off > 0 && p.off == len(p.buf) {
			p.buf, p.off = p.buf[:0], 0
		}
		k := min(len(b), maxPending-(len(p.buf)-p.off))
		p.buf = append(p.buf, b[:k]...)
		b = b[k:]
		n += k
		p.cond.Broadcast()
	}
	return n, nil
}

// CloseWrite ends the body: reads return what is left, then err (io.EOF when err is nil).
func (p *pipe) CloseWrite(err error) {
	if err == nil {
		err = io.EOF
	}
	p.mu.Lock()
	if p.werr == nil {
		p.werr = err
	}
	p.cond.Broadcast()
	p.mu.Unlock()
}

// Read takes up to len(b) of the bytes written so far, waiting for some if there are none.
func (p *pipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) == p.off && p.werr == nil && !p.rclosed {
		p.cond.Wait()
	}
	if p.rclosed {
		return 0, io.ErrClosedPipe
	}
	if len(p.buf) == p.off {
		return 0, p.werr
	}
	n := copy(b, p.buf[p.off:])
	p.off += n
	if p.off == len(p.buf) {
		if cap(p.buf) > 4<<10 {
			p.buf = nil // a burst's buffer is not kept for a long stream's life
		} else {
			p.buf = p.buf[:0]
		}
		p.off = 0
	}
	p.cond.Broadcast()
	return n, nil
}

// CloseRead closes the pipe from the reader's side: writes fail with err (io.ErrClosedPipe when
// nil), and what was not read is dropped.
func (p *pipe) CloseRead(err error) {
	if err == nil {
		err = io.ErrClosedPipe
	}
	p.mu.Lock()
	if !p.rclosed {
		p.rclosed, p.rerr = true, err
		p.buf, p.off = nil, 0
	}
	p.cond.Broadcast()
	p.mu.Unlock()
}
