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
	who := auditKey{c.user, api, op}
	if hw := p.auditWho(who); hw != nil {
		h = hw // the three attributes of who come first, already formatted
	} else {
		line.AddAttrs(who.attrs()...)
	}
	line.AddAttrs(attrs[:n]...)
	_ = h.Handle(ctx, line) // as Logger.LogAttrs, which drops a handler's error too
}

// auditKey is who made a call and what it called: the first attributes of its audit line.
type auditKey struct{ user, api, op string }

func (k auditKey) attrs() []slog.Attr {
	return []slog.Attr{slog.String("user", k.user), slog.String("api", k.api), slog.String("operation", k.op)}
}

// maxAuditWho bounds the handlers auditWho keeps; past it, a line of a new user, API and
// operation gets its attributes in the record, as every line once did.
const maxAuditWho = 512

// auditWho returns the audit handler with k's attributes added (slog.Handler.WithAttrs), made
// once per k: the handler formats them once, and the record keeps the call's own five or six
// attributes within its own storage, where nine needed an allocation of their own. The same
// line comes out (WithAttrs' attributes come before the record's). Nil when maxAuditWho are
// kept already. The table is read without a lock and replaced, copied, on each addition.
func (p *Proxy) auditWho(k auditKey) slog.Handler {
	if t := p.auditWhoT.Load(); t != nil {
		if h, ok := (*t)[k]; ok {
			return h
		}
	}
	p.auditWhoMu.Lock()
	defer p.auditWhoMu.Unlock()
	var old map[auditKey]slog.Handler
	if t := p.auditWhoT.Load(); t != nil {
		old = *t
	}
	if h, ok := old[k]; ok {
		return h
	}
	if len(old) >= maxAuditWho {
		return nil
	}
	h := p.auditTo.WithAttrs(k.attrs())
	t := make(map[auditKey]slog.Handler, len(old)+1)
	for key, v := range old {
		t[key] = v
	}
	t[k] = h
	p.auditWhoT.Store(&t)
	return h
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
