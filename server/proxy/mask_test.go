package proxy

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestMaskerPartial checks the held-back length against the plain definition (the longest
// suffix of a read that is a proper prefix of a secret form) on reads ending every which way:
// in a byte no secret holds, in part of a secret, in part of its base64 and percent forms.
func TestMaskerPartial(t *testing.T) {
	m := newMasker([]string{"sk-live/ABC+def=123", "tok-\u00e9t\u00e9-42"})
	reference := func(b []byte) int {
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
	tests := []struct {
		in   string
		want int
	}{
		{"data: {}\n\n", 0},
		{"", 0},
		{"key=sk-live/AB", len("sk-live/AB")},
		{"key=sk-live%2FAB", len("sk-live%2FAB")},
		{"sk-live/ABC+def=123", 0}, // a whole secret is masked, not held
		{"x s", 1},
		{"tok-", 4},
	}
	for _, tt := range tests {
		if got := m.partial([]byte(tt.in)); got != tt.want || got != reference([]byte(tt.in)) {
			t.Errorf("partial(%q): got %d; want %d (reference %d)", tt.in, got, tt.want, reference([]byte(tt.in)))
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		s := m.secrets[r.IntN(len(m.secrets))]
		b := []byte("prefix " + string(s[:r.IntN(len(s)+1)]))
		if r.IntN(3) == 0 {
			b = append(b, byte(r.IntN(256)))
		}
		if got, want := m.partial(b), reference(b); got != want {
			t.Fatalf("partial(%q): got %d; want %d", b, got, want)
		}
	}
}

// TestMaskerSearchesEachFormOnce: the same secret listed by several APIs (the sandboxes' shared
// key) is searched for once per form, and still masked.
func TestMaskerSearchesEachFormOnce(t *testing.T) {
	one := newMasker([]string{"loupe-sandbox-key"})
	seven := newMasker([]string{"loupe-sandbox-key", "loupe-sandbox-key", "loupe-sandbox-key",
		"loupe-sandbox-key", "loupe-sandbox-key", "loupe-sandbox-key", "loupe-sandbox-key"})
	if got, want := len(seven.secrets), len(one.secrets); got != want {
		t.Errorf("got %d forms for the key listed seven times; want %d, as for it listed once", got, want)
	}
	b := []byte(`{"echo":"loupe-sandbox-key","b64":"bG91cGUtc2FuZGJveC1rZXk="}`)
	seven.mask(b)
	if want := `{"echo":"*****************","b64":"************************"}`; string(b) != want {
		t.Errorf("got %s; want %s", b, want)
	}
}

// TestMaskerMasksEveryOccurrence compares mask with its plain definition: every byte of every
// occurrence, overlapping ones included, of any form in the text as it was before masking. The
// texts are random runs of the forms' pieces and other bytes; the secrets hold one another, as
// the cluster's basic credential holds the sandboxes' key.
func TestMaskerMasksEveryOccurrence(t *testing.T) {
	m := newMasker([]string{"loupe-sandbox-key", "elastic:loupe-sandbox-key", "aaaa", "ab/ab+ab"})
	reference := func(b []byte) []byte {
		out := bytes.Clone(b)
		for i := range b {
			for _, f := range m.secrets {
				if bytes.HasPrefix(b[i:], f) {
					copy(out[i:], bytes.Repeat([]byte("*"), len(f)))
				}
			}
		}
		return out
	}
	tests := []struct{ in, want string }{
		{`{"echo":"loupe-sandbox-key"}`, `{"echo":"*****************"}`},
		{"user elastic:loupe-sandbox-key.", "user *************************."},
		{"aaaaa", "*****"},
		{"ab%2Fab%2Bab ab/ab+a", "************ ab/ab+a"},
		{"no secret here", "no secret here"},
	}
	for _, tt := range tests {
		b := []byte(tt.in)
		m.mask(b)
		if string(b) != tt.want {
			t.Errorf("mask(%q): got %q; want %q", tt.in, b, tt.want)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b []byte
		for range r.IntN(6) {
			f := m.secrets[r.IntN(len(m.secrets))]
			from := r.IntN(len(f))
			b = append(b, f[from:from+r.IntN(len(f)-from+1)]...)
			if r.IntN(2) == 0 {
				b = append(b, "ae:l- "[r.IntN(6)])
			}
		}
		want := reference(b)
		got := bytes.Clone(b)
		m.mask(got)
		if !bytes.Equal(got, want) {
			t.Fatalf("mask(%q): got %q; want %q", b, got, want)
		}
	}
}

// TestMaskStringAsMask: a header value or log line is masked as a body is (every form, every
// occurrence, overlapping ones whole), and one that holds no secret comes back as it was;
// finds says whether mask would change a text.
func TestMaskStringAsMask(t *testing.T) {
	m := newMasker([]string{"loupe-sandbox-key", "elastic:loupe-sandbox-key", "aaaa", "ab/ab+ab"})
	tests := []struct{ in, want string }{
		{"Bearer loupe-sandbox-key", "Bearer *****************"},
		{"Basic ZWxhc3RpYzpsb3VwZS1zYW5kYm94LWtleQ==", "Basic ************************************"},
		{"</v1/x?key=ab%2Fab%2Bab>; rel=next", "</v1/x?key=************>; rel=next"},
		{"user elastic:loupe-sandbox-key.", "user *************************."},
		{"aaaaa", "*****"},
		{"application/json", "application/json"},
		{"a", "a"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := m.maskString(tt.in); got != tt.want {
			t.Errorf("maskString(%q): got %q; want %q", tt.in, got, tt.want)
		}
		b := []byte(tt.in)
		m.mask(b)
		if got := m.maskString(tt.in); got != string(b) {
			t.Errorf("maskString(%q): got %q; want %q, as mask", tt.in, got, b)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var s []byte
		for range r.IntN(5) {
			f := m.secrets[r.IntN(len(m.secrets))]
			from := r.IntN(len(f))
			s = append(s, f[from:from+r.IntN(len(f)-from+1)]...)
			s = append(s, "ae:l- "[r.IntN(6)])
		}
		want := bytes.Clone(s)
		m.mask(want)
		if got := m.maskString(string(s)); got != string(want) {
			t.Fatalf("maskString(%q): got %q; want %q", s, got, want)
		}
		if got, want := m.finds(s), !bytes.Equal(s, want); got != want {
			t.Fatalf("finds(%q): got %v; want %v (whether mask changes it)", s, got, want)
		}
	}
}
