package pagination

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
)

// FuzzCursorCodec: any cursor the codec accepts encodes back to one that decodes to the same
// position, and the cursor list answers any cursor a client sends with a page or DRF's 404
// "Invalid cursor", never a server error.
func FuzzCursorCodec(f *testing.F) {
	f.Add(exampleCursor, 0, false, "")
	f.Add(base64.StdEncoding.EncodeToString([]byte("o=3&r=1&p=2026-03-27+10%3A00%3A00%2B00%3A00")), 5, true, "2026-03-27 10:00:00+00:00")
	f.Add("cD0yMDI2", 1000, false, "\x00\xff")
	f.Add("%%%", -1, true, "a&b=c")
	f.Add(base64.StdEncoding.EncodeToString([]byte("o=99999999999999999999&r=-0&p=")), 1, false, "p=1")
	h := mounted(Options{})
	f.Fuzz(func(t *testing.T, encoded string, offset int, reverse bool, position string) {
		if c, err := decodeCursor(encoded); err == nil {
			again, err := decodeCursor(encodeCursor(c))
			if err != nil || again != c {
				t.Fatalf("decode(encode(%+v)) = %+v, %v; want the same cursor", c, again, err)
			}
		}
		if offset >= 0 && offset <= offsetCutoff {
			c := cursorPos{offset: offset, reverse: reverse, position: position, hasPos: position != ""}
			got, err := decodeCursor(encodeCursor(c))
			if err == nil && got != c {
				t.Fatalf("decode(encode(%+v)) = %+v; want the same cursor", c, got)
			}
			if err != nil && !strings.ContainsFunc(position, func(r rune) bool { return r >= 0x80 || r == '\uFFFD' }) {
				t.Fatalf("encode(%+v) does not decode: %v", c, err)
			}
		}
		w := serve(t, h, "GET", "http://loupe.test"+DefaultPrefix+CursorPath+"?cursor="+url.QueryEscape(encoded), nil)
		if w.Code != 200 && w.Code != 404 {
			t.Fatalf("cursor %q: got %d %s; want a page or 404", encoded, w.Code, w.Body)
		}
	})
}
