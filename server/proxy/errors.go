package proxy

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
)

// Errors the proxy's own hooks return; errorHandler turns them into JSON answers.
var (
	errHeaderTimeout = errors.New("upstream response header time-out")
	errStreamIdle    = errors.New("upstream stream idle")
	errRedirect      = errors.New("upstream redirected to another host")
	errEncoding      = errors.New("upstream sent an unrequested content encoding")
)

// errorBody is the JSON of every error the proxy answers itself. Error is a sentence, so
// clients that show {"error": "..."} show something useful.
type errorBody struct {
	Error  string `json:"error"`
	API    string `json:"api,omitempty"`
	Check  string `json:"check,omitempty"`
	Source string `json:"source"`
}

// writeError answers a JSON error; the X-Loupe-Error header tells it from the API's own errors.
func writeError(w http.ResponseWriter, status int, api, message, check string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Loupe-Error", "proxy")
	h.Del("Content-Length")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(errorBody{Error: message, API: api, Check: check, Source: "loupe proxy"})
}

func (p *Proxy) refuse(w http.ResponseWriter, c *call, ref *refusal) {
	api := ""
	if c.up != nil {
		api = c.up.slug
	}
	c.reason = "refused"
	writeError(w, ref.status, api, ref.message, ref.check)
}

func tooLarge(slug string, max int64) *refusal {
	return &refusal{http.StatusRequestEntityTooLarge,
		fmt.Sprintf("%s: the request body is larger than %d bytes", slug, max),
		"send a smaller body (images: smaller or fewer), or raise server.limits.max_body"}
}

// errorHandler answers a failed upstream call. Its messages are built from the configured base
// URL and a classified cause, never from the error's text, which may hold the upstream URL
// with a credential in its query.
func (p *Proxy) errorHandler(w http.ResponseWriter, r *http.Request, err error) {
	c := callFrom(r.Context())
	up := c.up
	base := up.BaseURL.Scheme + "://" + up.BaseURL.Host
	cfgKey := "apis." + up.slug + ".base_url"
	var maxErr *http.MaxBytesError
	switch {
	case errors.As(err, &maxErr):
		c.reason = "body too large"
		ref := tooLarge(up.slug, maxErr.Limit)
		writeError(w, ref.status, up.slug, ref.message, ref.check)
	case c.inErr != nil:
		// The client stopped sending its body (it hung up half-way): not the upstream's fault.
		// Checked first: its hanging up may also have cancelled the client's context by now.
		c.reason = "client abort"
		w.WriteHeader(499)
	case errors.Is(err, context.Canceled) && c.client.Err() != nil:
		c.reason = "client gone"
		w.WriteHeader(499) // nobody reads it; it is what the audit line shows
	case errors.Is(err, errHeaderTimeout), isTimeout(err):
		c.reason = "upstream time-out"
		writeError(w, http.StatusGatewayTimeout, up.slug,
			fmt.Sprintf("%s: %s did not answer within %s", up.slug, base, p.cfg.UpstreamTimeout),
			"that the API is up and reachable from the Loupe server, or raise server.limits.upstream_timeout")
	case errors.Is(err, errRedirect):
		c.reason = "redirect refused"
		writeError(w, http.StatusBadGateway, up.slug,
			fmt.Sprintf("%s: %s redirected to another host; Loupe follows no redirects away from the configured base URL", up.slug, base),
			cfgKey+": it may need to be the URL the API redirects to")
	case errors.Is(err, errEncoding):
		c.reason = "encoding refused"
		writeError(w, http.StatusBadGateway, up.slug,
			fmt.Sprintf("%s: %s answered with a content encoding Loupe did not ask for", up.slug, base),
			"the API or a proxy in front of it")
	default:
		cause, check := classify(err)
		c.reason = "upstream " + cause
		writeError(w, http.StatusBadGateway, up.slug,
			fmt.Sprintf("%s: could not get an answer from %s (%s)", up.slug, base, cause),
			check+" ("+cfgKey+")")
	}
}

// answerLateFailure answers a call whose upstream failed after its headers but before anything
// reached the client: the client hung up (499), or the upstream's body broke (502, naming the
// API and the cause).
func (p *Proxy) answerLateFailure(rec *recorder, r *http.Request, c *call) {
	rec.mu.Lock()
	bodyErr := rec.bodyErr
	rec.mu.Unlock()
	rec.restart()
	up := c.up
	switch {
	case r.Context().Err() != nil:
		c.reason = "client gone"
		rec.WriteHeader(499)
	case errors.Is(bodyErr, errStreamIdle):
		c.reason = "upstream idle"
		writeError(rec, http.StatusGatewayTimeout, up.slug,
			fmt.Sprintf("%s: %s sent its headers, then nothing for %s", up.slug, up.BaseURL.Scheme+"://"+up.BaseURL.Host, p.cfg.StreamIdleTimeout),
			"that the API is healthy, or raise server.limits.stream_idle_timeout")
	default:
		cause, check := classify(bodyErr)
		c.reason = "upstream " + cause + " after its headers"
		writeError(rec, http.StatusBadGateway, up.slug,
			fmt.Sprintf("%s: %s failed after its headers, before its answer (%s)", up.slug, up.BaseURL.Scheme+"://"+up.BaseURL.Host, cause),
			check+" (apis."+up.slug+".base_url)")
	}
}

// classify names a transport error's cause and what to check, without its text.
func classify(err error) (cause, check string) {
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var recErr tls.RecordHeaderError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused", "that the API is running and the base URL's port is right"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "connection reset", "that the API is up; a proxy or firewall may be closing the connection"
	case errors.As(err, &dnsErr):
		return "host not found", "the base URL's host name"
	case errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr):
		return "TLS certificate not trusted", "the API's certificate and the base URL's host name"
	case errors.As(err, &recErr):
		return "not a TLS server", "the base URL's scheme (http or https)"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "host unreachable", "the network between the Loupe server and the API"
	}
	// net/http's transport has no typed errors for these; their text is only matched here.
	switch msg := err.Error(); {
	case strings.Contains(msg, "malformed HTTP"):
		return "not an HTTP answer", "the base URL's port and scheme: something other than an HTTP server answered"
	case strings.Contains(msg, "response headers exceeded"):
		return "headers too large", "the API: its response headers are over the 1 MiB Loupe accepts"
	}
	return "connection failed", "the base URL and that the API is up"
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return strconv.Quote(s)
}
