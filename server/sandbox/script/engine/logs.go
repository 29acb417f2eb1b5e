package engine

import (
	"strings"
	"time"
	"unicode/utf8"
)

// logBuffer keeps the first lines a run logs, up to a number of lines and of bytes, and
// counts the rest; each kept line goes to the host as it is kept. Logger's lines are also
// kept apart for Logger.getLog until Logger.clear.
type logBuffer struct {
	maxLines, maxBytes int
	host               Host
	kept               []string
	bytes              int
	dropped            int
	logger             []string // Logger.log's lines since the last Logger.clear, stamped
	loggerBytes        int
}

// newLogBuffer returns the buffer of a run with lim's bounds.
func newLogBuffer(lim Limits, host Host) *logBuffer {
	return &logBuffer{maxLines: lim.MaxLogLines, maxBytes: lim.MaxLogBytes, host: host}
}

// add keeps line (cut to the bytes left), or counts it once the buffer is full.
func (b *logBuffer) add(line string) {
	left := b.maxBytes - b.bytes
	if len(b.kept) >= b.maxLines || left <= 0 {
		b.dropped++
		return
	}
	if len(line) > left {
		line = cutUTF8(line, left) + "… (cut: the sandbox keeps " + size(b.maxBytes) + " of logs a run)"
	}
	b.kept = append(b.kept, line)
	b.bytes += len(line)
	b.host.Log(line)
}

// addLogger keeps a line of Logger.log, also for getLog (stamped as Apps Script's log is:
// "[yy-MM-dd HH:mm:ss:SSS zone] message"), within the same bytes.
func (b *logBuffer) addLogger(line string, now time.Time) {
	b.add(line)
	if b.loggerBytes+len(line) > b.maxBytes {
		return
	}
	b.logger = append(b.logger, "["+now.Format("06-01-02 15:04:05")+":"+now.Format(".000")[1:]+" "+now.Format("MST")+"] "+line)
	b.loggerBytes += len(line)
}

// getLog is Logger.getLog: each of Logger's lines since the last clear, ended by a newline.
func (b *logBuffer) getLog() string {
	if len(b.logger) == 0 {
		return ""
	}
	return strings.Join(b.logger, "\n") + "\n"
}

// clear is Logger.clear.
func (b *logBuffer) clear() {
	b.logger, b.loggerBytes = nil, 0
}

// cutUTF8 returns at most n bytes of s, not splitting a character.
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
