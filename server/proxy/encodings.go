package proxy

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
)

// secretForms returns s and the forms an upstream may write it in when it echoes a request:
// JSON string escapes (with \/ and with the HTML-safe \u003c of Go and others), percent-encoding
// as a query or a path component does it, with upper- or lower-case hex, every reserved byte
// encoded (JavaScript's encodeURIComponent), and base64 in its four alphabets. The masker masks
// each, so a secret with '/', '+', '=', '%' or quotes does not slip through re-encoded.
func secretForms(s string) []string {
	forms := []string{s}
	add := func(f string) {
		for _, have := range forms {
			if have == f {
				return
			}
		}
		forms = append(forms, f)
	}
	js, _ := json.Marshal(s) // HTML-safe: < > & as \u003c \u003e \u0026
	jsonForm := string(js[1 : len(js)-1])
	add(jsonForm)
	add(strings.ReplaceAll(jsonForm, "/", `\/`))
	plain := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
	add(plain)
	add(strings.ReplaceAll(plain, "/", `\/`))
	for _, pct := range []string{url.QueryEscape(s), url.PathEscape(s), encodeAll(s), strings.ReplaceAll(url.QueryEscape(s), "+", "%20")} {
		add(pct)
		add(lowerHex(pct))
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		add(enc.EncodeToString([]byte(s)))
	}
	return forms
}

// encodeAll percent-encodes every byte but the unreserved A-Z a-z 0-9 - _ . ~ (RFC 3986).
func encodeAll(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// lowerHex writes the hex digits of every %XX escape in lower case.
func lowerHex(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			for j := i + 1; j <= i+2; j++ {
				if b[j] >= 'A' && b[j] <= 'F' {
					b[j] += 'a' - 'A'
				}
			}
			i += 2
		}
	}
	return string(b)
}
