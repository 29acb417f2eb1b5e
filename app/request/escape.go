package request

import (
	"net/url"
	"strconv"
	"strings"
)

// queryReserved are the reserved characters of RFC 3986 that allowReserved lets through a
// query value as they are: all but those that would end or split the query ('#', '&', '='),
// and '+', which a query decodes as a space.
const queryReserved = ":/?[]@!$'()*,;"

// queryEscape escapes a query name or value as a form does (a space as +); with
// allowReserved, the reserved characters that keep the query's shape are left as they are.
func queryEscape(s string, allowReserved bool) string {
	e := url.QueryEscape(s)
	if !allowReserved || !strings.Contains(e, "%") {
		return e
	}
	var b strings.Builder
	for i := 0; i < len(e); i++ {
		if e[i] == '%' && i+2 < len(e) {
			if d, err := strconv.ParseUint(e[i+1:i+3], 16, 8); err == nil && strings.IndexByte(queryReserved, byte(d)) >= 0 {
				b.WriteByte(byte(d))
				i += 2
				continue
			}
		}
		b.WriteByte(e[i])
	}
	return b.String()
}

// pathEscape escapes a path value as one segment (a slash as %2F, RFC 6570's simple
// expansion), or, when it captures (reserved expansion, {+name}), each of its
// slash-separated pieces, keeping the slashes.
func pathEscape(s string, captures bool) string {
	if !captures {
		return url.PathEscape(s)
	}
	parts := strings.Split(s, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// cookieEscape percent-encodes what a cookie value cannot hold (RFC 6265's cookie-octet:
// no space, quote, comma, semicolon, backslash, control or non-ASCII byte) and '%'.
func cookieEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '"' || c == ',' || c == ';' || c == '\\' || c == '%' {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }
