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
func (p *Proxy) audit(r *http.Request, c *call, rec *recorder, start time.Time) {
	api, op := "", c.op
	if c.up != nil {
		api = c.up.slug
	}
	if op == "" {
		op = "-"
	}
	attrs := []slog.Attr{
		slog.String("user", c.user),
		slog.String("api", api),
		slog.String("operation", op),
		slog.String("method", r.Method),
		slog.Int("status", rec.status),
		slog.Duration("duration", time.Since(start).Round(time.Microsecond)),
		slog.Int64("bytes", rec.bytes),
		slog.Int64("bytes_in", max(r.ContentLength, 0)),
	}
	if c.reason != "" {
		attrs = append(attrs, slog.String("outcome", c.reason))
	}
	p.cfg.Audit.LogAttrs(r.Context(), slog.LevelInfo, "proxy call", attrs...)
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
