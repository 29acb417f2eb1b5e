package proxy

import (
	"compress/gzip"
	"compress/zlib"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/andybalholm/brotli"
)

// CookieHeader carries an operation's cookie parameters from the app (app/request's
// CookieHeader): a browser cannot set Cookie, and the browser's own cookies are Loupe's and
// never go upstream. The proxy sends its value upstream as the Cookie header.
const CookieHeader = "X-Loupe-Cookie"

// AcceptEncodingHeader carries an operation's documented Accept-Encoding parameter from the
// app (app/request's AcceptEncodingHeader), which a browser cannot set either.
const AcceptEncodingHeader = "X-Loupe-Accept-Encoding"

// dropParams returns a raw query without the pairs whose name is in drop, the others kept as
// they were written, in their order and escaping. A query that holds none of them, as nearly
// every one does, is returned as it is: only the names are read, each unescaped only when it
// has an escape, and nothing is allocated.
func dropParams(raw string, drop map[string]bool) string {
	if raw == "" || !dropsAny(raw, drop) {
		return raw
	}
	var kept []string
	for pair := range strings.SplitSeq(raw, "&") {
		if !dropped(pair, drop) {
			kept = append(kept, pair)
		}
	}
	return strings.Join(kept, "&")
}

// dropsAny reports whether some pair of the raw query has its name in drop.
func dropsAny(raw string, drop map[string]bool) bool {
	for rest := raw; ; {
		pair, after, more := strings.Cut(rest, "&")
		if dropped(pair, drop) {
			return true
		}
		if !more {
			return false
		}
		rest = after
	}
}

// dropped reports whether a raw name=value pair's name, unescaped as a form reads it, is in drop.
func dropped(pair string, drop map[string]bool) bool {
	name, _, _ := strings.Cut(pair, "=")
	un, err := url.QueryUnescape(name) // name itself, without a copy, when it has no escape
	return err == nil && drop[un]
}

// documentsHeader reports whether the operation id has a header parameter called name.
func (o *operations) documentsHeader(id, name string) bool {
	return id != "" && o.headers[id][strings.ToLower(name)]
}

// decodeResponse decodes an answer the upstream compressed because the operation's documented
// Accept-Encoding asked for it, so that the masker reads it as it would read any other: the
// browser gets it decoded, without Content-Encoding. An encoding it does not know is refused.
func decodeResponse(resp *http.Response) error {
	var body io.ReadCloser
	var err error
	switch strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))) {
	case "", "identity":
		return nil
	case "gzip", "x-gzip":
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(resp.Body); err == nil {
			body = readCloser{zr, resp.Body}
		}
	case "deflate":
		var zr io.ReadCloser
		if zr, err = zlib.NewReader(resp.Body); err == nil {
			body = readCloser{zr, resp.Body}
		}
	case "br":
		body = readCloser{brotli.NewReader(resp.Body), resp.Body}
	default:
		return errEncoding
	}
	if err != nil {
		return errEncoding
	}
	resp.Body = body
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	resp.Uncompressed = true
	return nil
}

// readCloser reads a decoder and closes the body under it.
type readCloser struct {
	io.Reader
	under io.Closer
}

func (r readCloser) Close() error { return r.under.Close() }
