package proxy

import (
	"bytes"
	"errors"
	"io"
	"net/http"
)

// masker replaces every configured secret, in each of its encoded forms (secretForms), with
// asterisks of the same length, so a response's
// Content-Length stays right. Upstreams echo requests back (error messages quoting the URL,
// pagination links built from it), and the credential was in that request.
type masker struct {
	secrets  [][]byte
	byFirst  []formGroup // the forms by their first byte
	longest  int
	inSecret [256]bool // the bytes some secret holds: a read ending in any other holds nothing back
}

// newMasker returns the masker of secrets, or nil when none is long enough to mask. Each form
// is searched for once: the built-in sandboxes share one key, so by default every one of the
// seven APIs lists the same secret, and every read of every response was searched seven times
// for each of its forms.
func newMasker(secrets []string) *masker {
	m := &masker{}
	seen := map[string]bool{}
	for _, s := range secrets {
		if len(s) < 4 { // too short to mask without mangling ordinary text; config rejects none
			continue
		}
		for _, f := range secretForms(s) {
			if seen[f] {
				continue
			}
			seen[f] = true
			m.secrets = append(m.secrets, []byte(f))
			m.longest = max(m.longest, len(f))
			for i := 0; i < len(f); i++ {
				m.inSecret[f[i]] = true
			}
		}
	}
	if len(m.secrets) == 0 {
		return nil
	}
	m.byFirst = groupForms(m.secrets)
	return m
}

// mask masks every secret in b, in place: every byte of every occurrence of any form, as
// found in b before masking, overlapping occurrences included (a form that holds another, such
// as a basic credential holding a key, is masked whole).
func (m *masker) mask(b []byte) {
	type span struct{ from, to int }
	var found [4]span
	spans := found[:0]
	for gi := range m.byFirst {
		g := &m.byFirst[gi]
		for at := g.next(b, 0); at >= 0; at = g.next(b, at+1) {
			for _, f := range g.forms {
				if bytes.HasPrefix(b[at:], f) {
					spans = append(spans, span{at, at + len(f)})
					break // the longest: it covers the others' occurrences here
				}
			}
		}
	}
	for _, s := range spans {
		for j := s.from; j < s.to; j++ {
			b[j] = '*'
		}
	}
}

// maskString masks every secret in s as mask does. A string that holds none, as nearly every
// header value does, is returned as it is: looking costs one search per group of forms (see
// formGroup), not one per form (13 for the sandboxes' key), and nothing is copied.
func (m *masker) maskString(s string) string {
	if !m.holds(s) {
		return s
	}
	b := []byte(s)
	m.mask(b)
	return string(b)
}

// partial returns the length of b's longest suffix that is a proper prefix of a secret: those
// bytes must wait for the next read before they can be passed on.
//
// It runs on every read of every response, an event stream's included: most reads end in a
// byte no secret holds (an event ends with a blank line), which settles it at once, and a
// candidate prefix is compared only when its last byte matches b's.
func (m *masker) partial(b []byte) int {
	if len(b) == 0 || !m.inSecret[b[len(b)-1]] {
		return 0
	}
	last := b[len(b)-1]
	keep := 0
	for _, s := range m.secrets {
		for k := min(len(s)-1, len(b)); k > keep; k-- {
			if s[k-1] == last && bytes.Equal(b[len(b)-k:], s[:k]) {
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
//
// It reads into the caller's buffer and masks there, with what it held back copied in front:
// a stream held through the proxy costs no buffer of its own (it used to hold a 16 KB one for
// its whole life), only the few bytes held back. A caller's buffer too small to hold those and
// a useful read (under twice the longest secret) is served from a small buffer of its own.
type maskBody struct {
	body    io.ReadCloser
	m       *masker
	pending []byte // held back: could be the start of a secret; shorter than the longest secret
	ready   []byte // masked, still to be returned (only when reading through small)
	small   []byte // the buffer for small reads, made on the first one
	err     error
	closed  bool
	mw      maskWriter // the writer of WriteTo, the push path's, in the body's allocation
}

func (m *masker) wrap(body io.ReadCloser) io.ReadCloser {
	return &maskBody{body: body, m: m}
}

func (b *maskBody) Read(p []byte) (int, error) {
	for {
		if len(b.ready) > 0 {
			n := copy(p, b.ready)
			b.ready = b.ready[n:]
			return n, nil
		}
		if b.err != nil {
			return 0, b.err
		}
		if b.closed {
			return 0, errors.New("proxy: read after close")
		}
		direct := len(p) >= 2*b.m.longest
		buf := p
		if !direct {
			if b.small == nil {
				b.small = make([]byte, 512+2*b.m.longest)
			}
			buf = b.small
		}
		k := copy(buf, b.pending)
		n, err := b.body.Read(buf[k:])
		out := b.maskHolding(buf[:k+n], err != nil)
		b.err = err
		if !direct {
			b.ready = out
			continue
		}
		if len(out) > 0 {
			return len(out), nil
		}
	}
}

// maskHolding masks data (what was held back, then what came after it) and returns what can go
// on: all of it once the body has ended, otherwise all but its end that could begin a secret,
// which it holds back in pending. Read and the push path's maskWriter share it.
func (b *maskBody) maskHolding(data []byte, ended bool) []byte {
	b.m.mask(data)
	keep := 0
	if !ended {
		keep = b.m.partial(data)
	}
	b.pending = append(b.pending[:0], data[len(data)-keep:]...)
	return data[:len(data)-keep]
}

func (b *maskBody) Close() error {
	b.closed = true
	return b.body.Close()
}
