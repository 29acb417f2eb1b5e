package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // the manifest's time zone, wherever the engine runs (the browser has no zoneinfo)

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
)

// DefaultTimeZone is the time zone of a project whose manifest has none, as in Apps Script.
const DefaultTimeZone = "America/New_York"

// one serialises runs in a process: a run sets the process's local time zone (goja's Date
// reads time.Local) and the regular expressions' match timeout, both process-wide. The server
// runs each job in a worker process of its own (package worker), one at a time.
var one sync.Mutex

// Run executes job and never panics: an engine failure is a failed run. See the package
// documentation for what it runs and how it holds the limits.
func Run(job Job, host Host) Result { return RunWith(context.Background(), job, host, nil) }

// RunWith is Run, stopped (Failure.Limit LimitClient) when ctx ends; stuck, when not nil, is
// called (from another goroutine) when a run passed a limit and was interrupted, but has not
// stopped 300 ms later: a built-in holds it, which only the process's end can stop (a worker
// exits; see package worker).
func RunWith(ctx context.Context, job Job, host Host, stuck func(limit string)) (res Result) {
	one.Lock()
	defer one.Unlock()
	lim := job.Limits.withDefaults()
	loc := zone(job.TimeZone)
	prevLocal, prevMatch := time.Local, regexp2.DefaultMatchTimeout
	time.Local, regexp2.DefaultMatchTimeout = loc, lim.Timeout+50*time.Millisecond
	defer func() { time.Local, regexp2.DefaultMatchTimeout = prevLocal, prevMatch }()

	vm := goja.New()
	vm.SetMaxCallStackSize(lim.MaxStack)
	logs := newLogBuffer(lim, host)
	dog := watch(ctx, vm, lim, stuck)
	var svc *services
	defer func() {
		if r := recover(); r != nil {
			res = Result{Fail: &Failure{Type: "Error", Message: fmt.Sprintf("The engine stopped: %v", r)}}
		}
		dog.finish()
		if svc != nil && res.Fail == nil || svc != nil && res.Fail.Limit != LimitResult {
			vm.ClearInterrupt() // the writes made before a limit stopped the run are kept
			res.Changes = svc.changes()
		}
		res.Logs, res.LogsDropped = logs.kept, logs.dropped
	}()
	n := &natives{vm: vm, host: host, logs: logs, dog: dog, tz: loc, errorCtr: vm.Get("Error")}
	var err error
	if svc, err = install(vm, n, job, loc); err != nil {
		if errors.As(err, new(*goja.InterruptedError)) { // a limit came first (a loaded machine)
			f := failure(err, sources{})
			f.Stack = nil // the services' own code, not the user's
			return Result{Fail: f}
		}
		return Result{Fail: &Failure{Type: "Error", Message: "The sandbox's services did not start: " + err.Error()}}
	}
	srcs := sources{}
	for _, lib := range job.Libs {
		if fail := loadLibrary(vm, lib, srcs); fail != nil {
			return Result{Fail: fail}
		}
	}
	for _, f := range job.Files {
		if f.Type != "SERVER_JS" {
			continue
		}
		srcs[f.Name] = program{lines: lineMap{{file: f.Name, start: 1}}, source: f.Source}
		prg, err := Compile(f.Name, f.Source)
		if err != nil {
			return Result{Fail: compileFailure(err, srcs)}
		}
		if _, err := vm.RunProgram(prg); err != nil {
			return Result{Fail: failure(err, srcs)}
		}
	}
	fn, this, ok := lookupFunction(vm, job.Function)
	if !ok {
		return Result{Fail: &Failure{Type: "ScriptError", Message: "Script function not found: " + job.Function}}
	}
	args, err := svc.args(job.Args)
	if err != nil {
		return Result{Fail: &Failure{Type: "ScriptError", Message: err.Error()}}
	}
	v, err := fn(this, args...)
	if err != nil {
		return Result{Fail: failure(err, srcs)}
	}
	if job.WebApp {
		out, fail := svc.output(v, lim.MaxResult)
		return Result{Output: out, Fail: fail}
	}
	r, fail := svc.result(v, srcs, lim.MaxResult)
	return Result{Result: r, Fail: fail}
}

// zone is the manifest's time zone; an unknown or missing one is DefaultTimeZone.
func zone(name string) *time.Location {
	if name != "" {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
	}
	loc, _ := time.LoadLocation(DefaultTimeZone)
	return loc
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

// args turns the request's parameters into JavaScript values with JSON.parse.
func (s *services) args(params []json.RawMessage) ([]goja.Value, error) {
	out := make([]goja.Value, len(params))
	for i, p := range params {
		v, err := s.parse(goja.Undefined(), s.vm.ToValue(string(p)))
		if err != nil {
			return nil, fmt.Errorf("Parameter %d is not a JSON value.", i+1)
		}
		out[i] = v
	}
	return out, nil
}

// result serialises a return value: undefined is no result; a function, a symbol or a bigint
// is an error that says so; anything else is what JSON.stringify makes of it, within max bytes.
func (s *services) result(v goja.Value, srcs sources, max int) (json.RawMessage, *Failure) {
	if v == nil || goja.IsUndefined(v) {
		return nil, nil
	}
	switch kind := typeOf(v); kind {
	case "function", "symbol", "bigint":
		return nil, &Failure{Type: "ScriptError",
			Message: fmt.Sprintf("The script returned a %s, which the Apps Script API cannot return: return a string, number, boolean, array or object.", kind)}
	}
	str, err := s.stringify(goja.Undefined(), v)
	if err != nil {
		return nil, failure(err, srcs)
	}
	if goja.IsUndefined(str) {
		return nil, nil
	}
	if n := stringBytes(str); n > max {
		return nil, tooLarge("result", n, max)
	}
	return json.RawMessage(str.String()), nil
}

// tooLarge is the failure of a result or output past the limit.
func tooLarge(what string, n, max int) *Failure {
	return &Failure{Type: "ScriptError", Limit: LimitResult, Message: fmt.Sprintf(
		"Exceeded maximum %s size: the script's %s is %s; the sandbox returns at most %s.", what, what, size(n), size(max))}
}

// stringBytes is about how many bytes v takes as UTF-8 (its UTF-16 length, without copying).
func stringBytes(v goja.Value) int {
	if s, ok := v.(goja.String); ok {
		return s.Length()
	}
	return len(v.String())
}

// size formats a byte count for a message: bytes, or KiB or MiB with at most one decimal.
func size(n int) string {
	if n < 1<<10 {
		return fmt.Sprintf("%d bytes", n)
	}
	if n < 1<<20 {
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<10)), ".0") + " KiB"
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
}

// typeOf is JavaScript's typeof for the kinds result refuses.
func typeOf(v goja.Value) string {
	if _, ok := goja.AssertFunction(v); ok {
		return "function"
	}
	t := v.ExportType()
	if t == nil {
		return ""
	}
	switch t.String() {
	case "*goja.Symbol":
		return "symbol"
	case "*big.Int":
		return "bigint"
	}
	return ""
}
