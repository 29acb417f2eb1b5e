// Package fetch sends HTTP requests from the app. In the browser it uses window.fetch through
// syscall/js, which keeps net/http (about 5 MB) out of the wasm; elsewhere (native tests, the
// server-side prerender) it uses net/http. Both stream the response body as bytes arrive.
package fetch

import "io"

// Header is one HTTP header field. A name may appear several times, in order.
type Header struct {
	// Name is the field name; Value its value.
	Name, Value string
}

// Request is an HTTP request to send.
type Request struct {
	// Method is the HTTP method, upper case; empty means GET.
	Method string
	// URL is absolute, or relative to the page in the browser.
	URL string
	// Headers are sent in order.
	Headers []Header
	// Body is sent as is; nil sends no body.
	Body []byte
}

// Response is an HTTP response whose body is still arriving.
type Response struct {
	// Status is the HTTP status code, StatusText its reason phrase (may be empty in the browser).
	Status     int
	StatusText string
	// Headers are the response headers, names in lower case in the browser.
	Headers []Header
	// Body streams the response body. Close it to stop reading; closing before EOF aborts the
	// transfer.
	Body io.ReadCloser
}

// Header returns the value of the first header with the given name, compared case-insensitively,
// or "".
func (r *Response) Header(name string) string {
	for _, h := range r.Headers {
		if equalFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		ca, cb := a[i], b[i]
		if 'A' <= ca && ca <= 'Z' {
			ca += 'a' - 'A'
		}
		if 'A' <= cb && cb <= 'Z' {
			cb += 'a' - 'A'
		}
		if ca != cb {
			return false
		}
	}
	return true
}
