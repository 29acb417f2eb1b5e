package server

import (
	"bytes"
	"io"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// canonicalHTML returns page with each tag's attributes in name order. go-app renders a
// tag's attributes in map order, so two renders of the same page differ in bytes but not in
// meaning; the build's version (buildHash) must see them as the same page. Text that is not
// HTML comes back as it is.
func canonicalHTML(page []byte) []byte {
	z := html.NewTokenizer(bytes.NewReader(page))
	var out bytes.Buffer
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				return page
			}
			return out.Bytes()
		}
		raw := z.Raw()
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			out.Write(raw)
			continue
		}
		tok := z.Token()
		slices.SortStableFunc(tok.Attr, func(a, b html.Attribute) int { return strings.Compare(a.Key, b.Key) })
		out.WriteString(tok.String())
	}
}
