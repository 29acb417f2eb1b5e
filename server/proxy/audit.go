package proxy

import (
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"time"
)

// audit writes the call's line: who, which API and operation, the outcome, how long and how
// many bytes. Never the path's query, a header or an error's text: they may hold a credential.
//
// It hands the record to the audit logger's handler itself, as slog.Logger.LogAttrs would but
// without the caller's program counter (runtime.Callers on every call, the largest part of
// what the line cost; the audit line's source would only ever name this function) and with
// one reading of the clock for the record's time and the call's duration.
func (p *Proxy) audit(r *http.Request, c *call, rec *recorder, start time.Time) {
	h, ctx := p.auditTo, r.Context()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	api, op := "", c.op
	if c.up != nil {
		api = c.up.slug
	}
	if op == "" {
		op = "-"
	}
	now := time.Now()
	line := slog.NewRecord(now, slog.LevelInfo, "proxy call", 0)
	attrs := [...]slog.Attr{
		slog.String("user", c.user),
		slog.String("api", api),
		slog.String("operation", op),
		slog.String("method", r.Method),
		slog.Int("status", rec.status),
		slog.Duration("duration", now.Sub(start).Round(time.Microsecond)),
		slog.Int64("bytes", rec.bytes),
		slog.Int64("bytes_in", max(r.ContentLength, 0)),
		slog.String("outcome", c.reason),
	}
	n := len(attrs)
	if c.reason == "" {
		n-- // no outcome: the call went through
	}
	line.AddAttrs(attrs[:n]...)
	_ = h.Handle(ctx, line) // as Logger.LogAttrs, which drops a handler's error too
}

// slogWriter receives ReverseProxy's own log lines, masks the credentials in them and passes
// them to the audit logger at debug level.
type slogWriter struct{ p *Proxy }

func (w *slogWriter) Write(b []byte) (int, error) {
	msg := strings.TrimSpace(string(b))
	if m := w.p.masker(); m != nil {
		msg = m.maskString(msg)
	}
	w.p.cfg.Audit.Debug("reverse proxy", "detail", msg)
	return len(b), nil
}

func sortStrings(s []string) { sort.Strings(s) }
