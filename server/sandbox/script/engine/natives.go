package engine

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// natives are the Go functions the services' JavaScript (js/*.js) calls, through an object
// that only the services see: the host's state and locks, the log, time, bytes and crypto.
type natives struct {
	vm       *goja.Runtime
	host     Host
	logs     *logBuffer
	dog      *watchdog
	tz       *time.Location
	errorCtr goja.Value // the Error constructor, taken before any user code runs
}

// exception is an Apps Script service error: an Error named "Exception".
func (n *natives) exception(format string, a ...any) *goja.Object {
	e, err := n.vm.New(n.errorCtr, n.vm.ToValue(fmt.Sprintf(format, a...)))
	if err != nil {
		panic(err)
	}
	_ = e.Set("name", "Exception")
	return e
}

// object returns the natives as a JavaScript object.
func (n *natives) object() *goja.Object {
	o := n.vm.NewObject()
	set := func(name string, f func(goja.FunctionCall) goja.Value) { _ = o.Set(name, f) }
	arg := func(c goja.FunctionCall, i int) string { return c.Argument(i).String() }
	set("log", func(c goja.FunctionCall) goja.Value { n.logs.add(arg(c, 0)); return goja.Undefined() })
	set("logger", func(c goja.FunctionCall) goja.Value {
		n.logs.addLogger(arg(c, 0), time.Now().In(n.tz))
		return goja.Undefined()
	})
	set("getLog", func(goja.FunctionCall) goja.Value { return n.vm.ToValue(n.logs.getLog()) })
	set("clearLog", func(goja.FunctionCall) goja.Value { n.logs.clear(); return goja.Undefined() })
	set("load", func(c goja.FunctionCall) goja.Value {
		b, err := n.host.Load(arg(c, 0))
		if err != nil {
			panic(n.exception("%s", err.Error()))
		}
		if b == nil {
			return goja.Null()
		}
		return n.vm.ToValue(string(b))
	})
	set("commit", func(c goja.FunctionCall) goja.Value {
		var changes []Change
		if err := json.Unmarshal([]byte(arg(c, 0)), &changes); err != nil {
			panic(err)
		}
		if err := n.host.Commit(changes); err != nil {
			panic(n.exception("%s", err.Error()))
		}
		return goja.Undefined()
	})
	set("lock", func(c goja.FunctionCall) goja.Value {
		wait := time.Duration(c.Argument(1).ToInteger()) * time.Millisecond
		if left := time.Until(n.dog.deadline); wait > left {
			wait = max(left, 0)
		}
		ok, err := n.host.Lock(arg(c, 0), wait)
		if err != nil {
			panic(n.exception("%s", err.Error()))
		}
		return n.vm.ToValue(ok)
	})
	set("unlock", func(c goja.FunctionCall) goja.Value {
		if err := n.host.Unlock(arg(c, 0)); err != nil {
			panic(n.exception("%s", err.Error()))
		}
		return goja.Undefined()
	})
	set("sleep", func(c goja.FunctionCall) goja.Value {
		n.dog.sleep(time.Duration(c.Argument(0).ToInteger()) * time.Millisecond)
		return goja.Undefined()
	})
	set("uuid", func(goja.FunctionCall) goja.Value { return n.vm.ToValue(uuid4()) })
	set("newId", func(goja.FunctionCall) goja.Value { return n.vm.ToValue(newDocID()) })
	set("now", func(goja.FunctionCall) goja.Value { return n.vm.ToValue(time.Now().UnixMilli()) })
	n.setBytes(o)
	set("formatDate", func(c goja.FunctionCall) goja.Value {
		loc := javaZone(arg(c, 1))
		t := time.UnixMilli(c.Argument(0).ToInteger()).In(loc)
		s, err := formatSimpleDate(t, arg(c, 2))
		if err != nil {
			panic(n.exception("%s", err.Error()))
		}
		return n.vm.ToValue(s)
	})
	set("validZone", func(c goja.FunctionCall) goja.Value {
		_, err := time.LoadLocation(arg(c, 0))
		return n.vm.ToValue(err == nil && arg(c, 0) != "")
	})
	set("parseCsv", func(c goja.FunctionCall) goja.Value {
		r := csv.NewReader(strings.NewReader(arg(c, 0)))
		r.FieldsPerRecord = -1
		r.LazyQuotes = true
		if d := arg(c, 1); len(d) == 1 {
			r.Comma = rune(d[0])
		}
		rows, err := r.ReadAll()
		if err != nil {
			panic(n.exception("Could not parse text."))
		}
		return n.vm.ToValue(rows)
	})
	return o
}

// javaZone is the time zone named id as Java's TimeZone.getTimeZone reads it: an unknown name
// is GMT (Utilities.formatDate does not fail on one).
func javaZone(id string) *time.Location {
	switch id {
	case "UTC":
		return time.UTC
	case "GMT", "":
		return time.FixedZone("GMT", 0)
	}
	if loc, err := time.LoadLocation(id); err == nil {
		return loc
	}
	if off, ok := gmtOffset(id); ok {
		return time.FixedZone(id, off)
	}
	return time.FixedZone("GMT", 0)
}

// gmtOffset reads a custom Java zone ID such as "GMT+2" or "GMT-05:30" as seconds east of UTC.
func gmtOffset(id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, "GMT")
	if !ok || len(rest) < 2 || (rest[0] != '+' && rest[0] != '-') {
		return 0, false
	}
	sign := 1
	if rest[0] == '-' {
		sign = -1
	}
	var h, m int
	if _, err := fmt.Sscanf(rest[1:], "%d:%d", &h, &m); err != nil {
		if _, err := fmt.Sscanf(rest[1:], "%d", &h); err != nil {
			return 0, false
		}
	}
	if h > 23 || m > 59 {
		return 0, false
	}
	return sign * (h*3600 + m*60), true
}

// uuid4 is a random version 4 UUID, as Utilities.getUuid makes.
func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// newDocID is a new file ID shaped as Google's (44 characters, starting with 1).
func newDocID() string {
	var b [33]byte
	_, _ = rand.Read(b[:])
	return "1" + base64.RawURLEncoding.EncodeToString(b[:])[:43]
}
