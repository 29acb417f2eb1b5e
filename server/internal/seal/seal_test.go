package seal

import (
	"bytes"
	"strings"
	"testing"
)

type note struct {
	A string `json:"a"`
	N int    `json:"n"`
}

func TestSealOpens(t *testing.T) {
	s := New()
	v, err := s.Seal(note{"secret text", 7})
	if err != nil || strings.Contains(v, "secret") {
		t.Fatalf("Seal: %q, %v; want an opaque value", v, err)
	}
	var got note
	if err := s.Open(v, 1000, &got); err != nil || got != (note{"secret text", 7}) {
		t.Fatalf("Open: %+v, %v; want the note back", got, err)
	}
	changed := []byte(v)
	changed[len(changed)-3] ^= 1
	for name, tc := range map[string]struct {
		s     *Sealer
		value string
		max   int
	}{
		"changed":        {s, string(changed), 1000},
		"another server": {New(), v, 1000},
		"too long":       {s, v, len(v) - 1},
		"not base64":     {s, "!!", 1000},
		"short":          {s, "AAAA", 1000},
	} {
		if err := tc.s.Open(tc.value, tc.max, &got); err != ErrNotSealed {
			t.Errorf("%s: got %v; want ErrNotSealed", name, err)
		}
	}
}

// FuzzOpen: anything a client sends back is refused or opens, without a panic; only what was
// sealed opens.
func FuzzOpen(f *testing.F) {
	s := New()
	good, _ := s.Seal(note{"x", 1})
	f.Add(good)
	f.Add("")
	f.Add(strings.Repeat("A", 60))
	f.Fuzz(func(t *testing.T, v string) {
		var n note
		if err := s.Open(v, 4096, &n); err == nil && v != good {
			t.Fatalf("%q opened to %+v; want only the sealed value to open", v, n)
		}
	})
}

// TestNewKey: two Sealers with the same key (two replicas with one secret key) open each
// other's values; another key does not.
func TestNewKey(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	a, b, other := NewKey(key), NewKey(bytes.Clone(key)), NewKey(bytes.Repeat([]byte{8}, 32))
	v, err := a.Seal(note{"x", 1})
	if err != nil {
		t.Fatal(err)
	}
	var got note
	if err := b.Open(v, 1000, &got); err != nil || got != (note{"x", 1}) {
		t.Errorf("got %+v, %v from a Sealer with the same key; want {x 1}, nil", got, err)
	}
	if err := other.Open(v, 1000, &got); err != ErrNotSealed {
		t.Errorf("got %v from a Sealer with another key; want ErrNotSealed", err)
	}
}
