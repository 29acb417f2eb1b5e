package script

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/metrics"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// The sandbox runs a project's functions in goja, a JavaScript engine written in Go, the way
// Apps Script runs them in V8: every SERVER_JS file of the project is loaded, in the project's
// file order, into one global scope; each library of the manifest is loaded first, in a scope of
// its own, under its userSymbol; then the named function is called with the parameters (decoded
// by JSON.parse, so they are plain JavaScript values) and its return value is serialised by
// JSON.stringify (a Date becomes its ISO 8601 string).

// runLimits bounds one run.
type runLimits struct {
	timeout  time.Duration // wall-clock time before the run is interrupted as TIMED_OUT
	memory   uint64        // bytes the Go heap may grow while the run goes on
	maxStack int           // call depth before a RangeError
	maxLogs  int           // log lines kept (the rest are counted, not kept)
}

// runInput is what one run executes.
type runInput struct {
	files    []file    // the project's files, in order (only SERVER_JS is loaded)
	libs     []library // the manifest's libraries, resolved
	function string
	args     []any
}

// runOutput is the outcome of one run: a result (nil when the function returned undefined) or a
// failure, and the captured log lines.
type runOutput struct {
	result json.RawMessage
	fail   *scriptFailure
	logs   []string
}

// scriptFailure is an exception of a run, as the ExecutionError shows it.
type scriptFailure struct {
	errType  string // empty when unknown (timeouts)
	message  string
	stack    []stackFrame // deepest call first
	timedOut bool
}

// Reasons a run is interrupted (the values passed to goja's Interrupt).
var (
	errRunTimeout = errors.New("Exceeded maximum execution time")
	errRunMemory  = errors.New("Exceeded memory limit")
)

// execute runs in within lim and never panics: an engine failure is a failed run.
func execute(in runInput, lim runLimits) (out runOutput) {
	vm := goja.New()
	vm.SetMaxCallStackSize(lim.maxStack)
	logs := &logBuffer{max: lim.maxLogs}
	installLogging(vm, logs)
	stop := watch(vm, lim)
	defer func() {
		stop()
		out.logs = logs.lines()
		if r := recover(); r != nil {
			out.result, out.fail = nil, &scriptFailure{errType: "Error", message: fmt.Sprintf("The engine stopped: %v", r)}
		}
	}()
	srcs := sources{}
	for _, lib := range in.libs {
		if fail := loadLibrary(vm, lib, srcs); fail != nil {
			return runOutput{fail: fail}
		}
	}
	for _, f := range in.files {
		if f.typ != "SERVER_JS" {
			continue
		}
		srcs[f.name] = lineMap{{file: f.name, start: 1}}
		prg, err := compile(f.name, f.source)
		if err != nil {
			return runOutput{fail: compileFailure(err, srcs)}
		}
		if _, err := vm.RunProgram(prg); err != nil {
			return runOutput{fail: toFailure(err, srcs)}
		}
	}
	fn, this, ok := lookupFunction(vm, in.function)
	if !ok {
		return runOutput{fail: &scriptFailure{errType: "ScriptError", message: "Script function not found: " + in.function}}
	}
	args, err := jsArgs(vm, in.args)
	if err != nil {
		return runOutput{fail: &scriptFailure{errType: "ScriptError", message: err.Error()}}
	}
	v, err := fn(this, args...)
	if err != nil {
		return runOutput{fail: toFailure(err, srcs)}
	}
	res, fail := jsResult(vm, v, srcs)
	return runOutput{result: res, fail: fail}
}

// lookupFunction finds a global function, or a library's as "Symbol.name".
func lookupFunction(vm *goja.Runtime, name string) (goja.Callable, goja.Value, bool) {
	var this goja.Value = goja.Undefined()
	v := goja.Value(vm.GlobalObject())
	for _, part := range strings.Split(name, ".") {
		obj, ok := v.(*goja.Object)
		if !ok || part == "" {
			return nil, nil, false
		}
		this, v = obj, obj.Get(part)
		if v == nil {
			return nil, nil, false
		}
	}
	if !strings.Contains(name, ".") {
		this = goja.Undefined()
	}
	fn, ok := goja.AssertFunction(v)
	return fn, this, ok
}

// jsArgs turns the request's parameters into JavaScript values with JSON.parse.
func jsArgs(vm *goja.Runtime, params []any) ([]goja.Value, error) {
	parse, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
	out := make([]goja.Value, len(params))
	for i, p := range params {
		b, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("Parameter %d is not a JSON value.", i+1)
		}
		v, err := parse(goja.Undefined(), vm.ToValue(string(b)))
		if err != nil {
			return nil, fmt.Errorf("Parameter %d is not a JSON value.", i+1)
		}
		out[i] = v
	}
	return out, nil
}

// jsResult serialises a return value: undefined is no result; a function, a symbol or a bigint
// is an error that says so; anything else is what JSON.stringify makes of it.
func jsResult(vm *goja.Runtime, v goja.Value, srcs sources) (json.RawMessage, *scriptFailure) {
	if v == nil || goja.IsUndefined(v) {
		return nil, nil
	}
	switch kind := typeOf(v); kind {
	case "function", "symbol", "bigint":
		return nil, &scriptFailure{errType: "ScriptError",
			message: fmt.Sprintf("The script returned a %s, which the Apps Script API cannot return: return a string, number, boolean, array or object.", kind)}
	}
	stringify, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))
	s, err := stringify(goja.Undefined(), v)
	if err != nil {
		return nil, toFailure(err, srcs)
	}
	if goja.IsUndefined(s) {
		return nil, nil
	}
	return json.RawMessage(s.String()), nil
}

// typeOf is JavaScript's typeof for the kinds jsResult refuses.
func typeOf(v goja.Value) string {
	if _, ok := goja.AssertFunction(v); ok {
		return "function"
	}
	switch v.ExportType().String() {
	case "*goja.Symbol":
		return "symbol"
	case "*big.Int":
		return "bigint"
	}
	return ""
}

// watch interrupts vm past the time limit, or when the Go heap has grown by more than the
// memory bound since the run started (sampled every 10 ms). It returns the function that stops
// watching.
func watch(vm *goja.Runtime, lim runLimits) (stop func()) {
	done := make(chan struct{})
	base := heapBytes()
	go func() {
		deadline := time.NewTimer(lim.timeout)
		defer deadline.Stop()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-deadline.C:
				vm.Interrupt(errRunTimeout)
				return
			case <-tick.C:
				if h := heapBytes(); h > base && h-base > lim.memory {
					vm.Interrupt(errRunMemory)
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

// heapBytes is the memory occupied by live and not yet swept heap objects.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
