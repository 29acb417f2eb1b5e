package proxy

import (
	"io"
	"net/http"
	"net/url"
	"strings"
)

// modifyResponse makes an upstream response safe to hand to the browser: no redirect away from
// the base URL, no cookies or CORS grants for Loupe's origin, nothing that makes the browser
// ask for credentials, and the credential masked wherever the upstream echoed it.
func (p *Proxy) modifyResponse(resp *http.Response) error {
	c := callFrom(resp.Request.Context())
	up := c.up
	h := resp.Header
	if c.decode {
		if err := decodeResponse(resp); err != nil {
			return err
		}
	}
	if ce := first(h, "Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		return errEncoding
	}
	if loc := first(h, "Location"); loc != "" {
		local, ok := p.localLocation(up, resp.Request.URL, loc)
		switch {
		case ok:
			h["Location"] = []string{local}
		case resp.StatusCode >= 300 && resp.StatusCode < 400:
			return errRedirect
		default:
			delete(h, "Location")
		}
	}
	carryStatus(c, resp)
	if v := h["Www-Authenticate"]; len(v) > 0 {
		// The browser would prompt for a password and send it to Loupe; show it instead.
		delete(h, "Www-Authenticate")
		h["X-Upstream-Www-Authenticate"] = v
	}
	m := p.masker()
	for name, vs := range h { // one pass: what would act on Loupe's origin dropped, the rest masked
		if droppedResponse[name] {
			delete(h, name)
		} else if m != nil {
			for i, v := range vs {
				vs[i] = m.maskString(v)
			}
		}
	}
	// The wrappers of the body share one allocation, the call's.
	// Always: trailers the upstream did not announce appear in resp.Trailer only at the end.
	tb := &c.body
	*tb = trailerBody{ReadCloser: resp.Body, resp: resp, m: m}
	if m != nil {
		tb.mask = maskBody{body: resp.Body, m: m}
		tb.ReadCloser = &tb.mask
	}
	if resp.StatusCode != http.StatusSwitchingProtocols { // ReverseProxy needs its connection
		tb.end = endBody{tb.ReadCloser, c.rec} // in the same allocation
		tb.ReadCloser = &tb.end
		if pushes(resp.Body) {
			tb.sw = newStreamWriter(c.rec, resp)
			tb.push = &tb.sw
			if tb.sw.flush {
				unstream(resp, c.rec.Header())
			}
		}
	}
	resp.Body = tb
	return nil
}

// trailerBody makes the upstream's trailers as safe as its headers: the transport fills
// resp.Trailer when the body ends, and ReverseProxy copies them to the client after Close.
type trailerBody struct {
	io.ReadCloser
	resp *http.Response
	m    *masker
	mask maskBody // the body read, when there are secrets to mask
	end  endBody  // the body read, when it tells the recorder its end
	// push, for a body that writes itself (see push.go), is where the first Read writes it.
	push *streamWriter
	sw   streamWriter
}

// Read reads the upstream body, or on the push path writes all of it to the client at once
// and ends.
func (b *trailerBody) Read(p []byte) (int, error) {
	if b.push == nil {
		return b.ReadCloser.Read(p)
	}
	w := b.push
	b.push = nil
	if w.flush {
		// The headers go now, or with the first bytes if they come within headerHold, as
		// ReverseProxy's flusher would have sent them (see unstream).
		w.rec.Flush()
	}
	if _, err := b.ReadCloser.(io.WriterTo).WriteTo(w); err != nil {
		return 0, err
	}
	return 0, io.EOF
}

func (b *trailerBody) Close() error {
	err := b.ReadCloser.Close()
	t := b.resp.Trailer
	if len(t) == 0 {
		return err
	}
	dropHeaders(t, droppedResponse)
	delete(t, "Location")
	delete(t, "Www-Authenticate")
	if b.m != nil {
		b.m.maskHeader(t)
	}
	return err
}

// unstream shows ReverseProxy a pushed stream (an event stream, or a body of unknown length,
// that the push path writes and flushes write by write itself) as a response of known length,
// so that it does not start its own flusher for it: a timer that fires at once and flushes on
// a goroutine of its own, for every such response, with nothing left to flush but the headers,
// which the push path flushes as it begins (trailerBody.Read). ReverseProxy tells a streamed
// response by its Content-Type and its length alone (FlushInterval's documentation), and reads
// them only to choose its flushing after the headers are copied: the Content-Type is moved to
// the client's header map beforehand, where ReverseProxy adds the others, and the length is
// not used again.
func unstream(resp *http.Response, client http.Header) {
	if ct, ok := resp.Header["Content-Type"]; ok {
		client["Content-Type"] = ct
		delete(resp.Header, "Content-Type")
	}
	resp.ContentLength = 0
}

// droppedResponseHeaders would act on Loupe's origin rather than the API's.
var droppedResponseHeaders = []string{
	"Set-Cookie", "Set-Cookie2", "Clear-Site-Data", "Refresh",
	"Access-Control-Allow-Origin", "Access-Control-Allow-Credentials", "Access-Control-Allow-Headers",
	"Access-Control-Allow-Methods", "Access-Control-Expose-Headers", "Access-Control-Max-Age",
	"Strict-Transport-Security", "Alt-Svc", "Public-Key-Pins", "Proxy-Authenticate",
	"Content-Security-Policy", "Content-Security-Policy-Report-Only", "Service-Worker-Allowed",
	"Origin-Agent-Cluster", "Permissions-Policy", "Report-To", "Nel",
	// Loupe sets its own.
	"X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy",
}

var droppedResponse = set(droppedResponseHeaders)

// dropHeaders deletes the headers in drop, canonical names, from h: one pass over the few
// headers of h instead of a Del (which canonicalizes its argument) for each name in drop.
func dropHeaders(h http.Header, drop map[string]bool) {
	for name := range h {
		if drop[name] {
			delete(h, name)
		}
	}
}

// first is h.Get(name) for a canonical name, without canonicalizing it again.
func first(h http.Header, name string) string {
	if v := h[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// localLocation maps a Location under the API's base URL to the same place under
// /proxy/<slug>; ok is false for anywhere else.
func (p *Proxy) localLocation(up *upstream, reqURL *url.URL, loc string) (string, bool) {
	u, err := reqURL.Parse(loc)
	if err != nil || u.User != nil || !strings.EqualFold(u.Scheme, up.BaseURL.Scheme) || !strings.EqualFold(u.Host, up.BaseURL.Host) {
		return "", false
	}
	base := trimSlash(up.BaseURL.EscapedPath())
	path := u.EscapedPath()
	if path != base && !strings.HasPrefix(path, base+"/") {
		return "", false
	}
	rest := strings.TrimPrefix(path, base)
	if checkRest(rest) != nil {
		return "", false
	}
	out := Prefix + up.slug + rest
	if q := dropParams(u.RawQuery, up.credentialParams); q != "" {
		out += "?" + q
	}
	return out, true
}
