package proxy

import (
	"bytes"
	"slices"
	"strings"
)

// formGroup is the secret forms that begin with one byte: the masker looks for them together,
// by one byte of their common beginning, the anchor. The sandboxes' shared key and the
// cluster's basic credential make 13 forms that begin with 5 bytes; searching for each form on
// its own was a third of what the proxy added to each event of a stream.
//
// The anchor is the byte of the common beginning that is rarest in the text APIs answer with
// (commonness): searching for the first byte instead stopped at nearly every 'l' of a chat
// event for the sandbox key, loupe-sandbox-key ("role", "model", "null" ...), and each stop cost
// more than the rest of the search. Every occurrence of a form has the anchor at the same
// offset, so none is missed: the anchor only decides how often a place is looked at.
type formGroup struct {
	first  byte
	second [256]bool // the forms' second bytes: most places are ruled out by it
	forms  [][]byte  // longest first
	text   []string  // the same, as strings (holds)
	anchor byte      // the byte searched for
	at     int       // its offset in every form
}

// groupForms groups the forms by their first byte, each group's forms longest first.
func groupForms(forms [][]byte) []formGroup {
	byLength := slices.Clone(forms)
	slices.SortStableFunc(byLength, func(a, b []byte) int { return len(b) - len(a) })
	var groups []formGroup
	for _, f := range byLength {
		i := slices.IndexFunc(groups, func(g formGroup) bool { return g.first == f[0] })
		if i < 0 {
			i = len(groups)
			groups = append(groups, formGroup{first: f[0]})
		}
		g := &groups[i]
		g.second[f[1]] = true
		g.forms = append(g.forms, f)
		g.text = append(g.text, string(f))
	}
	for i := range groups {
		g := &groups[i]
		lead := g.forms[0]
		for _, f := range g.forms[1:] {
			n := 0
			for n < len(lead) && n < len(f) && lead[n] == f[n] {
				n++
			}
			lead = lead[:n]
		}
		for j := range lead {
			if commonness(lead[j]) < commonness(lead[g.at]) {
				g.at = j
			}
		}
		g.anchor = lead[g.at]
	}
	return groups
}

// next returns the first place at or after from where a form of the group may begin in b:
// the anchor at its offset, the first byte and a second one of the group's; -1 when there is
// none.
func (g *formGroup) next(b []byte, from int) int {
	for off := from + g.at; off < len(b); {
		i := bytes.IndexByte(b[off:], g.anchor)
		if i < 0 {
			return -1
		}
		at := off + i - g.at
		if at+1 < len(b) && b[at] == g.first && g.second[b[at+1]] {
			return at
		}
		off += i + 1
	}
	return -1
}

// nextString is next in a string.
func (g *formGroup) nextString(s string, from int) int {
	for off := from + g.at; off < len(s); {
		i := strings.IndexByte(s[off:], g.anchor)
		if i < 0 {
			return -1
		}
		at := off + i - g.at
		if at+1 < len(s) && s[at] == g.first && g.second[s[at+1]] {
			return at
		}
		off += i + 1
	}
	return -1
}

// finds reports whether b holds some form of a secret: whether mask would change it.
func (m *masker) finds(b []byte) bool {
	for gi := range m.byFirst {
		g := &m.byFirst[gi]
		for at := g.next(b, 0); at >= 0; at = g.next(b, at+1) {
			for _, f := range g.forms {
				if bytes.HasPrefix(b[at:], f) {
					return true
				}
			}
		}
	}
	return false
}

// holds reports whether s holds some form of a secret.
func (m *masker) holds(s string) bool {
	for gi := range m.byFirst {
		g := &m.byFirst[gi]
		for at := g.nextString(s, 0); at >= 0; at = g.nextString(s, at+1) {
			for _, f := range g.text {
				if strings.HasPrefix(s[at:], f) {
					return true
				}
			}
		}
	}
	return false
}

// commonness ranks how often a byte occurs in the text of API answers (JSON, URLs, English):
// the higher, the more often. It only steers the choice of anchors.
func commonness(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(letterFrequency[c-'a'])
	case c >= '0' && c <= '9':
		return 60
	case c >= 'A' && c <= 'Z':
		return 8
	}
	switch c {
	case ' ', '"':
		return 255
	case ':', ',':
		return 200
	case '{', '}', '\n':
		return 100
	case '[', ']', '.', '/', '_':
		return 40
	case '-', '=', '&', '%':
		return 25
	}
	return 5
}

// letterFrequency is each lower-case letter's frequency in English text, per mille.
var letterFrequency = [26]uint8{82, 15, 28, 43, 127, 22, 20, 61, 70, 2, 8, 40, 24, 67, 75, 19, 1, 60, 63, 91, 28, 10, 24, 2, 20, 1}
