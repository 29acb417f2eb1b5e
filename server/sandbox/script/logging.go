package script

import (
	"fmt"
	"strings"

	"github.com/dop251/goja"
)

// logBuffer keeps the first max log lines of a run and counts the rest.
type logBuffer struct {
	max     int
	kept    []string
	dropped int
}

// add keeps line, or counts it once the buffer is full.
func (b *logBuffer) add(line string) {
	if len(b.kept) >= b.max {
		b.dropped++
		return
	}
	b.kept = append(b.kept, line)
}

// lines returns the kept lines, with a last line saying how many were dropped.
func (b *logBuffer) lines() []string {
	if b.dropped == 0 {
		return b.kept
	}
	return append(b.kept, fmt.Sprintf("(%d more log lines were not kept)", b.dropped))
}

// installLogging defines console.log (and info, warn, error) and Logger.log, which write to b.
// console's arguments are joined by spaces, objects as JSON; Logger.log(format, values...)
// replaces each %s of the format with the next value, as Apps Script's Logger does.
func installLogging(vm *goja.Runtime, b *logBuffer) {
	console := vm.NewObject()
	write := func(call goja.FunctionCall) goja.Value {
		parts := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			parts[i] = logText(vm, a)
		}
		b.add(strings.Join(parts, " "))
		return goja.Undefined()
	}
	for _, name := range []string{"log", "info", "warn", "error"} {
		_ = console.Set(name, write)
	}
	_ = vm.Set("console", console)

	logger := vm.NewObject()
	_ = logger.Set("log", func(call goja.FunctionCall) goja.Value {
		if len(call.Arguments) == 0 {
			b.add("")
			return logger
		}
		text := logText(vm, call.Arguments[0])
		for _, a := range call.Arguments[1:] {
			if !strings.Contains(text, "%s") {
				break
			}
			text = strings.Replace(text, "%s", logText(vm, a), 1)
		}
		b.add(text)
		return logger
	})
	_ = vm.Set("Logger", logger)
}

// logText is how a logged value reads: strings as they are, objects and arrays as JSON,
// anything else as String(value).
func logText(vm *goja.Runtime, v goja.Value) string {
	obj, ok := v.(*goja.Object)
	if !ok || obj.ClassName() == "Function" || obj.ClassName() == "Error" || obj.ClassName() == "Date" {
		return v.String()
	}
	stringify, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))
	s, err := stringify(goja.Undefined(), v)
	if err != nil || goja.IsUndefined(s) {
		return v.String()
	}
	return s.String()
}
