package proxy

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
)

// masker replaces every configured secret, in each of its encoded forms (secretForms), with
// asterisks of the same length, so a response's
// Content-Length stays right. Upstreams echo requests back (error messages quoting the URL,
// pagination links built from it), and the credential was in that request.
type masker struct {
	secrets [][]byte
	longest int
}

func newMasker(secrets []string) *masker {
	m := &masker{}
	for _, s := range secrets {
		if len(s) < 4 { // too short to mask without mangling ordinary text; config rejects none
			continue
		}
		for _, f := range secretForms(s) {
			m.secrets = append(m.secrets, []byte(f))
			m.longest = max(m.longest, len(f))
		}
	}
	if len(m.secrets) == 0 {
		return nil
	}
	return m
}

// mask masks every secret in b, in place.
func (m *masker) mask(b []byte) {
	for _, s := range m.secrets {
		for off := 0; ; {
			i := bytes.Index(b[off:], s)
			if i < 0 {
				break
			}
			for j := off + i; j < off+i+len(s); j++ {
				b[j] = '*'
			}
			off += i + len(s)
		}
	}
}

// maskString masks every secret in s.
func (m *masker) maskString(s string) string {
	for _, sec := range m.secrets {
		if strings.Contains(s, string(sec)) {
			s = strings.ReplaceAll(s, string(sec), strings.Repeat("*", len(sec)))
		}
	}
	return s
}

// partial returns the length of b's longest suffix that is a proper prefix of a secret: those
// bytes must wait for the next read before they can be passed on.
func (m *masker) partial(b []byte) int {
	keep := 0
	for _, s := range m.secrets {
		for k := min(len(s)-1, len(b)); k > keep; k-- {
			if bytes.HasSuffix(b, s[:k]) {
				keep = k
				break
			}
		}
	}
	return keep
}

// maskHeader masks secrets in every header value.
func (m *masker) maskHeader(h http.Header) {
	for _, vs := range h {
		for i, v := range vs {
			vs[i] = m.maskString(v)
		}
	}
}

// maskBody masks secrets in a body as it streams: only the bytes that could begin a secret
// are held back, so an event stream is not delayed (an event ends with a blank line, which no
// secret begins with).
type maskBody struct {
	body    io.ReadCloser
	m       *masker
	pending []byte // held back: could be the start of a secret
	ready   []byte // masked, to be returned
	buf     []byte
	err     error
}

// maskBuffers reuses the read buffers of maskBody.
var maskBuffers = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}

func (m *masker) wrap(body io.ReadCloser) io.ReadCloser {
	return &maskBody{body: body, m: m, buf: *(maskBuffers.Get().(*[]byte))}
}

func (b *maskBody) Read(p []byte) (int, error) {
	for len(b.ready) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		if b.buf == nil {
			return 0, errors.New("proxy: read after close")
		}
		n, err := b.body.Read(b.buf)
		data := b.buf[:n] // masked in place: b.buf is read again only once ready is drained
		if len(b.pending) > 0 {
			data = append(b.pending, data...)
		}
		b.m.mask(data)
		keep := 0
		if err == nil {
			keep = b.m.partial(data)
		}
		b.ready = data[:len(data)-keep]
		b.pending = nil
		if keep > 0 {
			b.pending = append([]byte(nil), data[len(data)-keep:]...)
		}
		b.err = err
	}
	n := copy(p, b.ready)
	b.ready = b.ready[n:]
	return n, nil
}

func (b *maskBody) Close() error {
	if buf := b.buf; buf != nil {
		b.buf = nil
		maskBuffers.Put(&buf)
	}
	return b.body.Close()
}
